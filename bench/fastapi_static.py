# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

"""A Python stack serving the built chat page, as a yardstick for bench/web_bench.sh:
FastAPI + uvicorn, Starlette's StaticFiles (ETag, If-None-Match) behind GZipMiddleware
(compresses every response on the fly), the page at / as a FastAPI deployment would serve it.

    python3 bench/fastapi_static.py --dir reference_server/portfolio/web/dist --port 18091 [--workers N]
"""
import argparse

import uvicorn
from fastapi import FastAPI
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.staticfiles import StaticFiles


def make_app(directory):
    app = FastAPI()
    app.add_middleware(GZipMiddleware, minimum_size=1024)
    app.mount("/", StaticFiles(directory=directory, html=True), name="page")
    return app


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--port", type=int, default=18091)
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args()
    if args.workers > 1:
        import os
        os.environ["PAGE_DIR"] = args.dir
        uvicorn.run("fastapi_static:app_from_env", factory=True, host="127.0.0.1", port=args.port,
                    workers=args.workers, log_level="warning", app_dir=os.path.dirname(os.path.abspath(__file__)))
    else:
        uvicorn.run(make_app(args.dir), host="127.0.0.1", port=args.port, log_level="warning")


def app_from_env():
    import os
    return make_app(os.environ["PAGE_DIR"])
