-- Copyright (c) 2026 The agentio developers
-- Distributed under the Boost Software License, Version 1.0. (See accompanying
-- file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

-- wrk -s post.lua URL: POSTs the JSON body in the BODY environment variable.
wrk.method = "POST"
wrk.body = os.getenv("BODY")
wrk.headers["Content-Type"] = "application/json"
