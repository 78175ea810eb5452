#!/usr/bin/env python3
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
"""Checks the trace of one question to agentio-platform for its sibling's model
(agentio-portfolio), as the OTLP receiver (tests/otlp/receiver.mjs) accepted its
spans: one trace, the caller's, from the platform's server span through its
chat call and that call's HTTP client span to the sibling's server span,
agent, model calls (each with its HTTP client span) and tool call, and on
through the tool's HTTP call to the sibling's own REST API.
Waits up to 10 s for the spans (the exporters send every 100 ms). Prints the
tree, as docs/guide/15-observability.md shows it.

    otlp_trace_check.py SPANS.jsonl TRACE_ID ANSWER_JSON
"""
import json
import sys
import time


def load(path, trace_id):
    spans = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                s = json.loads(line)
                if s["traceId"] == trace_id:
                    spans.append(s)
    return spans


def main():
    path, trace_id, answer = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
    content = answer["choices"][0]["message"]["content"]
    expected = {
        ("agentio-platform", "POST /v1/chat/completions"),
        ("agentio-platform", "invoke_agent portfolio"),
        ("agentio-platform", "chat portfolio"),
        ("agentio-portfolio", "POST /v1/chat/completions"),
        ("agentio-portfolio", "invoke_agent portfolio"),
        ("agentio-portfolio", "chat portfolio-two-rounds"),
        ("agentio-portfolio", "execute_tool contar_iniciativas"),
    }
    deadline = time.time() + 10
    while True:
        spans = load(path, trace_id)
        seen = {(s["serviceName"], s["name"]) for s in spans}
        if expected <= seen or time.time() > deadline:
            break
        time.sleep(0.2)
    problems = [f"no span {name!r} of {service}" for service, name in sorted(expected - seen)]
    by_id = {s["spanId"]: s for s in spans}

    def one(service, name):
        found = [s for s in spans if s["serviceName"] == service and s["name"] == name]
        return found[0] if found else None

    def parent_is(child, parent, what):
        if child and parent and child["parentSpanId"] != parent["spanId"]:
            problems.append(f"{what}: parent {child['parentSpanId']}, expected {parent['spanId']}")

    server = one("agentio-platform", "POST /v1/chat/completions")
    run = one("agentio-platform", "invoke_agent portfolio")
    call = one("agentio-platform", "chat portfolio")
    sibling = one("agentio-portfolio", "POST /v1/chat/completions")
    sibling_run = one("agentio-portfolio", "invoke_agent portfolio")
    tool = one("agentio-portfolio", "execute_tool contar_iniciativas")

    def client_under(parent, service):
        found = [s for s in spans if parent and s["parentSpanId"] == parent["spanId"] and
                 s["serviceName"] == service and s["kind"] == 3 and s["name"] == "POST"]
        return found[0] if found else None

    outgoing = client_under(call, "agentio-platform")
    tool_http = client_under(tool, "agentio-portfolio")
    api = [s for s in spans if tool_http and s["parentSpanId"] == tool_http["spanId"] and
           s["serviceName"] == "agentio-portfolio" and s["name"].startswith("POST /api/")]
    if server and server["parentSpanId"] != "b7ad6b7169203331":
        problems.append("the platform's server span is not under the caller's")
    parent_is(run, server, "the platform's run under its server span")
    parent_is(call, run, "the platform's call under its run")
    if call and not outgoing:
        problems.append("no HTTP client span (POST) under the platform's chat call")
    parent_is(sibling, outgoing, "the sibling's server span under the platform's HTTP call")
    parent_is(sibling_run, sibling, "the sibling's run under its server span")
    parent_is(tool, sibling_run, "the tool call under the sibling's run")
    if tool and not tool_http:
        problems.append("no HTTP client span (POST) under the tool call")
    elif tool_http and tool_http["attributes"].get("http.response.status_code") != 200:
        problems.append(f"the tool's HTTP span has status {tool_http['attributes'].get('http.response.status_code')}")
    if tool_http and not api:
        problems.append("no server span of the REST API under the tool's HTTP call")
    for chat in (s for s in spans if s["serviceName"] == "agentio-portfolio" and s["name"].startswith("chat ")):
        if not client_under(chat, "agentio-portfolio"):
            problems.append(f"no HTTP client span under the sibling's {chat['name']}")
    for s in spans:
        if s["name"].startswith("chat ") and s["kind"] != 3:
            problems.append(f"{s['name']} is not a client span")
    if call and call["attributes"].get("gen_ai.provider.name") != "openai":
        problems.append("the platform's call to its sibling is not gen_ai.provider.name=openai")
    if tool and tool["attributes"].get("gen_ai.tool.name") != "contar_iniciativas":
        problems.append("the tool span has no gen_ai.tool.name")
    if not content:
        problems.append("the platform's answer is empty")
    if problems:
        for p in problems:
            print("otlp_trace_check:", p, file=sys.stderr)
        return 1

    def show(span, depth):
        attrs = span["attributes"]
        notes = [f"{k}={attrs[k]}" for k in ("http.route", "url.full", "gen_ai.provider.name", "gen_ai.tool.name",
                                              "gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens") if k in attrs]
        ms = (int(span["endTimeUnixNano"]) - int(span["startTimeUnixNano"])) / 1e6
        print(f"{'  ' * depth}{span['serviceName']}: {span['name']} ({ms:.1f} ms){'  ' + ' '.join(notes) if notes else ''}")
        for child in sorted((s for s in spans if s["parentSpanId"] == span["spanId"]),
                            key=lambda s: int(s["startTimeUnixNano"])):
            show(child, depth + 1)

    print(f"otlp_trace_check: one trace of {len(spans)} spans over two applications, as the receiver decoded them:")
    show(server, 1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
