#!/usr/bin/env python3
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
"""agentio-sqlite-mcp over stdio, as an MCP client drives it: initialize, the
tool list, the schema, a select with a parameter, a refused DELETE (a tool
error with its code, not a protocol error), a malformed call; the server
still answers and the database file is byte-identical afterwards. Its log,
as JSON Lines in AGENTIO_LOG_FILE, has a line per call and nothing on
stdout or stderr. Then over HTTP with the specification's LOG_* variables:
GET /metrics counts the requests by route, and the log (text: LOG_FORMAT is
a Python logging pattern, said once) has the requests.

    stdio_session.py AGENTIO_SQLITE_MCP WORK_DIR
"""
import hashlib
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request


def clean_environment(**extra):
    """The environment without any log variable, plus `extra`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AGENTIO_LOG_", "LOG_"))}
    env.update(extra)
    return env


def check_stdio_log(path):
    lines = [json.loads(line) for line in open(path, encoding="utf-8")]
    events = [line["event"] for line in lines]
    assert events[0] == "start" and events[-1] == "stop", events
    assert all(line["program"] == "agentio-sqlite-mcp" for line in lines), lines
    assert lines[0]["transport"] == "stdio", lines[0]
    calls = [line for line in lines if line["event"] == "tool.call"]
    assert [c["tool"] for c in calls] == ["sqlite_get_schema", "sqlite_run_select", "sqlite_run_select",
                                          "sqlite_run_select", "list_tables", "describe_table", "describe_table"], calls
    ok, refused = calls[1], calls[2]
    assert ok["level"] == "info" and ok["outcome"] == "ok" and ok["summary"] == "1 filas", ok
    assert isinstance(ok["duration_ms"], (int, float)) and ok["duration_ms"] >= 0, ok
    assert refused["level"] == "warn" and refused["outcome"] == "error", refused
    assert refused["summary"] == "query_validation_failed" and refused["error"], refused
    # The arguments (the SQL) only at debug.
    assert not any("input" in c for c in calls), calls
    assert "DELETE" not in open(path, encoding="utf-8").read()


def http_session(exe, db, work):
    """The HTTP transport: a session begun, GET /metrics, the log in LOG_FILE."""
    log = os.path.join(work, "http.log")
    env = clean_environment(LOG_LEVEL="DEBUG", LOG_FILE=log,
                            LOG_FORMAT="%(asctime)s - %(name)s - %(levelname)s - %(message)s")
    out = open(os.path.join(work, "http.out"), "w+")
    server = subprocess.Popen([exe, "--db", db, "--transport", "http", "--port", "0"], stdout=out,
                              stderr=subprocess.STDOUT, env=env, cwd=work)
    try:
        url = None
        for _ in range(100):
            out.seek(0)
            text = out.read()
            if "/mcp" in text:
                url = text.split("en ", 1)[1].split(" ", 1)[0]
                break
            if server.poll() is not None:
                break
            time.sleep(0.1)
        assert url and url.startswith("http://127.0.0.1:") and url.endswith("/mcp"), text
        base = url[: -len("/mcp")]

        def post(body, session=None):
            headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
            if session:
                headers["Mcp-Session-Id"] = session
            req = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers, method="POST")
            return urllib.request.urlopen(req, timeout=10)

        # initialize is answered as JSON, before it is written: counted by the time the client has it.
        with post({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                   "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                              "clientInfo": {"name": "stdio_session.py", "version": "1"}}}) as r:
            assert r.status == 200, r.status
            session = r.headers["Mcp-Session-Id"]
            assert json.loads(r.read())["result"]["serverInfo"]["name"] == "agentio-sqlite-mcp"
        with post({"jsonrpc": "2.0", "method": "notifications/initialized"}, session) as r:
            assert r.status == 202, r.status

        with urllib.request.urlopen(base + "/metrics", timeout=10) as r:
            assert r.status == 200, r.status
            assert r.headers["Content-Type"] == "text/plain; version=0.0.4; charset=utf-8", r.headers["Content-Type"]
            metrics = r.read().decode()
        assert 'agentio_http_requests_total{method="POST",route="/mcp",status="200"} 1\n' in metrics, metrics
        assert 'agentio_http_requests_total{method="POST",route="/mcp",status="202"} 1\n' in metrics, metrics
        assert "\nprocess_open_fds " in metrics, metrics
    finally:
        server.send_signal(signal.SIGTERM)
        status = server.wait(timeout=20)
    assert status == 0, status
    text = open(log, encoding="utf-8").read()
    lines = text.splitlines()
    assert "WARN agentio-sqlite-mcp start.warning detail=\"LOG_FORMAT '%(asctime)s" in lines[0], lines[0]
    assert any(" INFO agentio-sqlite-mcp start transport=http url=http://127.0.0.1:" in line for line in lines), text
    assert any(" INFO agentio-sqlite-mcp http.request method=POST route=/mcp status=200 streamed=false duration_ms="
               in line for line in lines), text
    # LOG_LEVEL=DEBUG: the scrape too.
    assert any(" DEBUG agentio-sqlite-mcp http.request method=GET route=/metrics status=200 " in line
               for line in lines), text
    assert " INFO agentio-sqlite-mcp stop" in lines[-1], lines[-1]


def main():
    exe, work = sys.argv[1], sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    db = os.path.join(work, "facturas.db")
    con = sqlite3.connect(db)
    con.executescript("""
        CREATE TABLE customers(id INTEGER PRIMARY KEY, name TEXT NOT NULL, country TEXT NOT NULL);
        CREATE TABLE invoices(id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id), total REAL);
        INSERT INTO customers VALUES (1, 'Ana', 'España'), (2, 'Luís', 'Portugal');
        INSERT INTO invoices VALUES (1, 1, 30.5), (2, 1, 12.0), (3, 2, 7.25);
    """)
    con.commit()
    con.close()
    digest = hashlib.sha256(open(db, "rb").read()).hexdigest()

    log = os.path.join(work, "stdio.log")
    env = clean_environment(AGENTIO_LOG_FILE=log, AGENTIO_LOG_FORMAT="json", AGENTIO_LOG_LEVEL="info")
    server = subprocess.Popen([exe, "--db", db], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=open(os.path.join(work, "server.log"), "w"), text=True, encoding="utf-8",
                              env=env, cwd=work)
    next_id = [0]

    def request(method, params=None):
        next_id[0] += 1
        message = {"jsonrpc": "2.0", "id": next_id[0], "method": method}
        if params is not None:
            message["params"] = params
        server.stdin.write(json.dumps(message) + "\n")
        server.stdin.flush()
        answer = json.loads(server.stdout.readline())
        assert answer["id"] == next_id[0], answer
        return answer

    def call(name, arguments):
        answer = request("tools/call", {"name": name, "arguments": arguments})
        assert "result" in answer, answer
        return answer["result"]

    init = request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                  "clientInfo": {"name": "stdio_session.py", "version": "1"}})
    assert init["result"]["protocolVersion"] == "2025-11-25", init
    assert init["result"]["serverInfo"]["name"] == "agentio-sqlite-mcp", init
    server.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
    server.stdin.flush()

    tools = {t["name"]: t for t in request("tools/list")["result"]["tools"]}
    assert sorted(tools) == ["describe_table", "list_tables", "sqlite_get_schema", "sqlite_run_select"], tools
    assert tools["sqlite_run_select"]["inputSchema"]["required"] == ["sql"], tools["sqlite_run_select"]
    assert tools["sqlite_run_select"]["annotations"]["readOnlyHint"] is True, tools["sqlite_run_select"]

    schema = call("sqlite_get_schema", {})
    tables = schema["structuredContent"]["tables"]
    assert [t["name"] for t in tables] == ["customers", "invoices"], tables
    assert tables[1]["foreign_keys"] == [{"column": "customer_id", "references_table": "customers",
                                          "references_column": "id"}], tables[1]

    rows = call("sqlite_run_select", {"sql": "SELECT c.name, sum(i.total) FROM invoices i JOIN customers c "
                                             "ON c.id = i.customer_id WHERE c.country = ? GROUP BY c.name",
                                      "params": ["España"]})
    assert not rows.get("isError"), rows
    assert rows["structuredContent"]["rows"] == [["Ana", 42.5]], rows
    assert json.loads(rows["content"][0]["text"])["row_count"] == 1, rows

    refused = call("sqlite_run_select", {"sql": "DELETE FROM invoices"})
    assert refused["isError"] is True, refused
    assert refused["structuredContent"]["error_code"] == "query_validation_failed", refused
    assert json.loads(refused["content"][0]["text"])["error_code"] == "query_validation_failed", refused

    invalid = call("sqlite_run_select", {"max_rows": 0})
    assert invalid["isError"] is True, invalid

    listed = call("list_tables", {})
    assert listed["structuredContent"] == {"tables": [{"name": "customers"}, {"name": "invoices"}]}, listed
    assert json.loads(listed["content"][0]["text"]) == [{"name": "customers"}, {"name": "invoices"}], listed
    described = call("describe_table", {"table_name": "invoices"})
    assert [c["name"] for c in described["structuredContent"]["columns"]] == ["id", "customer_id", "total"], described
    missing = call("describe_table", {"table_name": "facturas"})
    assert missing["isError"] and missing["structuredContent"]["message"] == "La tabla 'facturas' no existe", missing

    assert request("ping")["result"] == {}
    server.stdin.close()
    assert server.stdout.read() == "", "stdout carries the protocol alone"
    assert server.wait(timeout=10) == 0
    assert hashlib.sha256(open(db, "rb").read()).hexdigest() == digest, "the database changed"
    # The log in its file, nothing on stderr.
    assert open(os.path.join(work, "server.log"), encoding="utf-8").read() == ""
    check_stdio_log(log)
    print("agentio-sqlite-mcp over stdio: every check passed")

    http_session(exe, db, work)
    assert hashlib.sha256(open(db, "rb").read()).hexdigest() == digest, "the database changed"
    print("agentio-sqlite-mcp over HTTP: GET /metrics and the log checked")


if __name__ == "__main__":
    main()
