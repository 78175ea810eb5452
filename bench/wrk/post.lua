-- wrk -s post.lua URL: POSTs the JSON body in the BODY environment variable.
wrk.method = "POST"
wrk.body = os.getenv("BODY")
wrk.headers["Content-Type"] = "application/json"
