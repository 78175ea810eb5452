-- Copyright (c) 2026 The agentio developers
-- Distributed under the Boost Software License, Version 1.0. (See accompanying
-- file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

-- wrk -s mcp.lua URL: POSTs the JSON-RPC request in BODY to an MCP Streamable
-- HTTP endpoint in the session SESSION, and counts answers that are not a
-- successful result (printed as "mcp errors N").
wrk.method = "POST"
wrk.body = os.getenv("BODY")
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.headers["Mcp-Session-Id"] = os.getenv("SESSION")
wrk.headers["MCP-Protocol-Version"] = "2025-11-25"

local threads = {}
function setup(thread)
  table.insert(threads, thread)
end

bad = 0
function response(status, headers, body)
  if status ~= 200 or not string.find(body, '"result"', 1, true) or string.find(body, '"isError":true', 1, true) then
    bad = bad + 1
  end
end

function done(summary, latency, requests)
  local total = 0
  for _, t in ipairs(threads) do
    total = total + t:get("bad")
  end
  io.write(string.format("mcp errors %d\n", total))
end
