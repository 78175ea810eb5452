// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The two prompts of the invoice agent, in Spanish: one writes the SQL from
// the schema and the conversation, the other the answer from the rows alone.
#pragma once

#include <boost/json/object.hpp>

#include <string>

namespace facturas {

/// The schema of `sqlite_get_schema` as text for the model: each table with its
/// columns, keys and rows, and what the tables of the invoice database hold.
std::string describe_schema(boost::json::object const& schema);

/// The system prompt of the SQL step.
std::string sql_system_prompt(std::string const& schema_text, unsigned max_rows);

/// The system prompt of the answer step.
std::string answer_system_prompt();

/// The message that sends SQLite's refusal back to the model (the repair round).
std::string repair_message(std::string const& sqlite_message);

/// The message of the answer step: the question and the rows.
std::string answer_message(std::string const& question, std::string const& sql, boost::json::object const& result);

} // namespace facturas
