// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "sql_text.hpp"

#include <cctype>

namespace facturas {

namespace {

using query_result = boost::system::result<std::string, std::string>;

// Both sides are strings: say which one.
query_result refused(std::string why)
{
    return query_result(boost::system::in_place_error, std::move(why));
}

std::string_view trim(std::string_view s)
{
    while(!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while(!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

// The text after leading blanks and SQL comments.
std::string_view skip_comments(std::string_view s)
{
    for(;;)
    {
        s = trim(s);
        if(s.starts_with("--"))
        {
            auto const end = s.find('\n');
            s = end == std::string_view::npos ? std::string_view() : s.substr(end + 1);
        }
        else if(s.starts_with("/*"))
        {
            auto const end = s.find("*/");
            s = end == std::string_view::npos ? std::string_view() : s.substr(end + 2);
        }
        else
            return s;
    }
}

bool starts_with_word(std::string_view s, std::string_view word)
{
    if(s.size() < word.size())
        return false;
    for(std::size_t i = 0; i < word.size(); ++i)
        if(std::toupper(static_cast<unsigned char>(s[i])) != word[i])
            return false;
    return s.size() == word.size() ||
        !(std::isalnum(static_cast<unsigned char>(s[word.size()])) || s[word.size()] == '_');
}

} // namespace

std::string strip_code_fences(std::string_view text)
{
    text = trim(text);
    if(auto const open = text.find("```"); open != std::string_view::npos)
    {
        auto body = text.substr(open + 3);
        auto const line_end = body.find('\n'); // the fence's language tag ("sql")
        body = line_end == std::string_view::npos ? std::string_view() : body.substr(line_end + 1);
        if(auto const close = body.find("```"); close != std::string_view::npos)
            body = body.substr(0, close);
        text = trim(body);
    }
    while(!text.empty() && (text.back() == ';' || std::isspace(static_cast<unsigned char>(text.back()))))
        text.remove_suffix(1);
    return std::string(text);
}

boost::system::result<std::string, std::string> prepare_query(std::string_view text, unsigned max_rows,
    std::size_t max_bytes)
{
    std::string const sql = strip_code_fences(text);
    if(skip_comments(sql).empty())
        return refused("el modelo no devolvió ninguna consulta");
    if(sql.size() > max_bytes)
        return refused("la consulta ocupa " + std::to_string(sql.size()) + " bytes (máximo " +
            std::to_string(max_bytes) + ")");
    auto const start = skip_comments(sql);
    if(!starts_with_word(start, "SELECT") && !starts_with_word(start, "WITH"))
        return refused("solo se permiten consultas de lectura (SELECT o WITH … SELECT)");
    // The query as a subquery: its own LIMIT, ORDER BY and CTEs stay as they
    // are, and the outer LIMIT caps what any of them returns. The newline
    // keeps a final '--' comment from swallowing the parenthesis.
    return query_result(boost::system::in_place_value,
        "SELECT * FROM (\n" + sql + "\n) LIMIT " + std::to_string(max_rows));
}

} // namespace facturas
