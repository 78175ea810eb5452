//
// agentio/llm/message_json.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The neutral conversation as JSON, for storing it: every block kind keeps
// every field (tool calls with their raw arguments, thinking signatures,
// opaque provider blocks), so a stored conversation reloads exactly and the
// model sees again what it did. The shape is this library's own, not a
// provider's wire format:
//
//   {"role":"assistant","content":[{"type":"text","text":"..."},
//     {"type":"tool_use","id":"...","name":"...","input":{...},"raw_input":"..."}]}
//

#ifndef AGENTIO_LLM_MESSAGE_JSON_HPP
#define AGENTIO_LLM_MESSAGE_JSON_HPP

#include <agentio/config.hpp>
#include <agentio/llm/conversation.hpp>

#include <boost/json/value.hpp>

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace agentio::llm {

/// A message as JSON.
AGENTIO_DECL json::value to_json(message const& m);

/** A message from its JSON (as written by @ref to_json).

    @param v the JSON
    @param why set to what is wrong when the JSON is not a message
    @return the message, or nothing when `v` is not one
*/
AGENTIO_DECL std::optional<message> message_from_json(json::value const& v, std::string* why = nullptr);

/// Messages as one JSON array text.
AGENTIO_DECL std::string messages_to_json_text(std::span<message const> messages);

/// Messages from a JSON array text; nothing when the text is not one.
AGENTIO_DECL std::optional<std::vector<message>> messages_from_json_text(std::string_view text,
    std::string* why = nullptr);

} // namespace agentio::llm

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/llm/impl/message_json.ipp>
#endif

#endif
