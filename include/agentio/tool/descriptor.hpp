//
// agentio/tool/descriptor.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// What a model or an MCP client is told of a tool: its name, description and
// input schema. Small on purpose: the neutral conversation names the tools a
// request offers without knowing toolsets, validators or how tools are called.
//

#ifndef AGENTIO_TOOL_DESCRIPTOR_HPP
#define AGENTIO_TOOL_DESCRIPTOR_HPP

#include <boost/json/object.hpp>

#include <memory>
#include <string_view>

namespace agentio {

namespace json = boost::json;

/** How a tool is presented to a model or an MCP client.

    The views stay valid as long as the tool does: forever for the tools of
    a @ref toolset, as long as `owner` for runtime tools.
*/
struct tool_descriptor
{
    std::string_view name;
    std::string_view description;
    /// The input schema as JSON text.
    std::string_view input_schema_text;
    /// The same schema, parsed.
    json::object const* input_schema = nullptr;
    /// Keeps a runtime tool's strings alive; empty for static tools.
    std::shared_ptr<void const> owner;
    /// A call waits for a person's approval (a tool says so with
    /// `static constexpr bool requires_approval = true`).
    bool requires_approval = false;
    /** Running a call twice has the effect of running it once, given the
        same `tool_context::idempotency_key` (a tool says so with
        `static constexpr bool idempotent = true`): a durable run that lost
        its process in the middle of such a call runs it again; any other
        call in that state waits for a person. */
    bool idempotent = false;
};

} // namespace agentio

#endif
