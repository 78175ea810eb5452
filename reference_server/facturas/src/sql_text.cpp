// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "sql_text.hpp"

#include <algorithm>
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

// What a statement is made of, read as SQLite reads it: words and
// punctuation outside quotes, comments and parentheses. Enough to tell one
// read-only statement from a stack of them or a write dressed as a CTE,
// before anything else touches the text.
struct statement_shape
{
    bool stacked = false;     // a ';' with more text after it
    std::string main_keyword; // the first top-level keyword after WITH's CTEs (SELECT, DELETE, …)
};

statement_shape shape_of(std::string_view sql)
{
    statement_shape out;
    int depth = 0;
    bool after_with = false, first_word = true, ended = false;
    std::size_t i = 0;
    auto skip_quoted = [&](char close) {
        for(++i; i < sql.size(); ++i)
            if(sql[i] == close)
            {
                if(i + 1 < sql.size() && sql[i + 1] == close && close != ']')
                    ++i; // a doubled quote inside the literal
                else
                    return;
            }
    };
    for(; i < sql.size(); ++i)
    {
        char const c = sql[i];
        if(c == '\'' || c == '"' || c == '`')
        {
            if(ended)
                out.stacked = true;
            skip_quoted(c);
        }
        else if(c == '[')
            skip_quoted(']');
        else if(c == '-' && i + 1 < sql.size() && sql[i + 1] == '-')
        {
            auto const end = sql.find('\n', i);
            i = end == std::string_view::npos ? sql.size() : end;
        }
        else if(c == '/' && i + 1 < sql.size() && sql[i + 1] == '*')
        {
            auto const end = sql.find("*/", i + 2);
            i = end == std::string_view::npos ? sql.size() : end + 1;
        }
        else if(c == '(')
            ++depth;
        else if(c == ')')
            --depth;
        else if(c == ';')
            ended = true;
        else if(std::isspace(static_cast<unsigned char>(c)))
            continue;
        else if(ended)
            out.stacked = true;
        else if(std::isalpha(static_cast<unsigned char>(c)) || c == '_')
        {
            auto const start = i;
            while(i < sql.size() && (std::isalnum(static_cast<unsigned char>(sql[i])) || sql[i] == '_'))
                ++i;
            std::string word(sql.substr(start, i - start));
            --i;
            for(auto& ch : word)
                ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
            if(depth != 0)
                continue;
            if(first_word)
            {
                first_word = false;
                after_with = word == "WITH";
                if(!after_with)
                    out.main_keyword = word;
            }
            else if(after_with && out.main_keyword.empty())
                for(char const* statement : {"SELECT", "VALUES", "INSERT", "UPDATE", "DELETE", "REPLACE"})
                    if(word == statement)
                        out.main_keyword = word;
        }
    }
    return out;
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
        return refused("El modelo no devolvió ninguna consulta.");
    if(sql.size() > max_bytes)
        return refused("La consulta ocupa " + std::to_string(sql.size()) + " bytes (máximo " +
            std::to_string(max_bytes) + ").");
    auto const start = skip_comments(sql);
    if(!starts_with_word(start, "SELECT") && !starts_with_word(start, "WITH"))
        return refused("Solo se permiten consultas de lectura (SELECT o WITH … SELECT).");
    // Checked before the text is wrapped in the LIMIT below, which would turn
    // either into a syntax error (and a repair round for nothing).
    auto const shape = shape_of(sql);
    if(shape.stacked)
        return refused("Solo se permite una consulta; el texto contiene varias sentencias separadas por «;».");
    if(shape.main_keyword != "SELECT" && shape.main_keyword != "VALUES")
        return refused("Solo se permiten consultas de lectura (SELECT o WITH … SELECT), no " +
            (shape.main_keyword.empty() ? std::string("una sentencia sin SELECT") : shape.main_keyword) + ".");
    // The query as a subquery: its own LIMIT, ORDER BY and CTEs stay as they
    // are, and the outer LIMIT caps what any of them returns. The newline
    // keeps a final '--' comment from swallowing the parenthesis.
    return query_result(boost::system::in_place_value,
        "SELECT * FROM (\n" + sql + "\n) LIMIT " + std::to_string(max_rows));
}

std::vector<std::string> mentioned_tables(std::string_view sql, std::vector<std::string> const& among)
{
    auto const lower = [](std::string_view text) {
        std::string out(text);
        for(auto& c : out)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return out;
    };
    std::vector<std::string> words;
    for(std::size_t i = 0; i < sql.size();)
    {
        auto const c = static_cast<unsigned char>(sql[i]);
        if(!std::isalnum(c) && c != '_')
        {
            ++i;
            continue;
        }
        auto const start = i;
        while(i < sql.size() && (std::isalnum(static_cast<unsigned char>(sql[i])) || sql[i] == '_'))
            ++i;
        words.push_back(lower(sql.substr(start, i - start)));
    }
    std::vector<std::string> out;
    for(auto const& table : among)
        if(std::find(words.begin(), words.end(), lower(table)) != words.end())
            out.push_back(table);
    return out;
}

} // namespace facturas
