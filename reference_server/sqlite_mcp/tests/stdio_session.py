#!/usr/bin/env python3
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
"""agentio-sqlite-mcp over stdio, as an MCP client drives it: initialize, the
tool list, the schema, a select with a parameter, a refused DELETE (a tool
error with its code, not a protocol error), a malformed call; the server
still answers and the database file is byte-identical afterwards.

    stdio_session.py AGENTIO_SQLITE_MCP WORK_DIR
"""
import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys


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

    server = subprocess.Popen([exe, "--db", db], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=open(os.path.join(work, "server.log"), "w"), text=True, encoding="utf-8")
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
    assert server.wait(timeout=10) == 0
    assert hashlib.sha256(open(db, "rb").read()).hexdigest() == digest, "the database changed"
    print("agentio-sqlite-mcp over stdio: every check passed")


if __name__ == "__main__":
    main()
