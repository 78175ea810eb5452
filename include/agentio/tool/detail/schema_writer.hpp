//
// agentio/tool/detail/schema_writer.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// A JSON writer that runs in constant evaluation, so schemas are text in the
// binary rather than work at start-up; and a JSON syntax check, so the JSON
// snippets users put in field traits (defaults, examples) fail the build when
// they are malformed instead of confusing the model at run time.
//

#ifndef AGENTIO_TOOL_DETAIL_SCHEMA_WRITER_HPP
#define AGENTIO_TOOL_DETAIL_SCHEMA_WRITER_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>

namespace agentio::detail {

/// A growable character buffer for constant evaluation. Not std::string:
/// clang rejects libstdc++ 12's constexpr std::string (its small-string
/// union), and schemas must build with both compilers.
class constexpr_text
{
public:
    constexpr constexpr_text() = default;
    constexpr_text(constexpr_text const&) = delete;
    constexpr_text& operator=(constexpr_text const&) = delete;
    constexpr ~constexpr_text() { delete[] data_; }

    constexpr constexpr_text& operator+=(char c)
    {
        if(size_ == capacity_)
            grow();
        data_[size_++] = c;
        return *this;
    }

    constexpr constexpr_text& operator+=(std::string_view s)
    {
        for(char c : s)
            *this += c;
        return *this;
    }

    constexpr std::string_view view() const noexcept { return {data_, size_}; }

private:
    constexpr void grow()
    {
        std::size_t const capacity = capacity_ == 0 ? 256 : capacity_ * 2;
        char* bigger = new char[capacity]{};
        for(std::size_t i = 0; i < size_; ++i)
            bigger[i] = data_[i];
        delete[] data_;
        data_ = bigger;
        capacity_ = capacity;
    }

    char* data_ = nullptr;
    std::size_t size_ = 0;
    std::size_t capacity_ = 0;
};

/// Appends JSON text; tracks where commas go. Usable in constant expressions.
class schema_writer
{
public:
    constexpr void begin_object()
    {
        value_prefix();
        out_ += '{';
        push();
    }
    constexpr void end_object()
    {
        out_ += '}';
        pop();
    }
    constexpr void begin_array()
    {
        value_prefix();
        out_ += '[';
        push();
    }
    constexpr void end_array()
    {
        out_ += ']';
        pop();
    }

    constexpr void key(std::string_view k)
    {
        separator();
        append_string(k);
        out_ += ':';
        after_key_ = true;
    }

    constexpr void string(std::string_view s)
    {
        value_prefix();
        append_string(s);
    }
    constexpr void raw(std::string_view json)
    {
        value_prefix();
        out_ += json;
    }
    constexpr void boolean(bool b)
    {
        value_prefix();
        out_ += b ? "true" : "false";
    }

    constexpr void integer(std::int64_t v)
    {
        value_prefix();
        // Negate in unsigned arithmetic: -INT64_MIN does not fit in int64.
        std::uint64_t magnitude = v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
        if(v < 0)
            out_ += '-';
        append_unsigned(magnitude);
    }

    constexpr void unsigned_integer(std::uint64_t v)
    {
        value_prefix();
        append_unsigned(v);
    }

    constexpr std::string_view text() const noexcept { return out_.view(); }

private:
    constexpr void push() { first_[++depth_] = true; }
    constexpr void pop() { --depth_; }

    constexpr void separator()
    {
        if(!first_[depth_])
            out_ += ',';
        first_[depth_] = false;
    }

    // A value after a key takes no comma; a value in an array does.
    constexpr void value_prefix()
    {
        if(after_key_)
            after_key_ = false;
        else if(depth_ > 0)
            separator();
    }

    constexpr void append_unsigned(std::uint64_t v)
    {
        char digits[20] = {};
        int n = 0;
        do
        {
            digits[n++] = static_cast<char>('0' + v % 10);
            v /= 10;
        } while(v != 0);
        while(n > 0)
            out_ += digits[--n];
    }

    constexpr void append_string(std::string_view s)
    {
        constexpr char hex[] = "0123456789abcdef";
        out_ += '"';
        for(char c : s)
        {
            auto const u = static_cast<unsigned char>(c);
            if(c == '"' || c == '\\')
            {
                out_ += '\\';
                out_ += c;
            }
            else if(c == '\n')
                out_ += "\\n";
            else if(c == '\t')
                out_ += "\\t";
            else if(c == '\r')
                out_ += "\\r";
            else if(u < 0x20)
            {
                out_ += "\\u00";
                out_ += hex[u >> 4];
                out_ += hex[u & 15];
            }
            else
                out_ += c; // UTF-8 passes through: JSON is UTF-8
        }
        out_ += '"';
    }

    constexpr_text out_;
    std::array<bool, 64> first_{true};
    int depth_ = 0;
    bool after_key_ = false;
};

/// Recursive-descent JSON syntax check (RFC 8259), for constant evaluation.
class json_syntax
{
public:
    static constexpr bool valid(std::string_view text)
    {
        json_syntax p{text};
        p.ws();
        if(!p.value(0))
            return false;
        p.ws();
        return p.pos_ == text.size();
    }

private:
    constexpr explicit json_syntax(std::string_view t) : text_(t) {}

    constexpr bool at_end() const { return pos_ >= text_.size(); }
    constexpr char peek() const { return at_end() ? '\0' : text_[pos_]; }

    constexpr void ws()
    {
        while(!at_end() && (peek() == ' ' || peek() == '\n' || peek() == '\r' || peek() == '\t'))
            ++pos_;
    }

    constexpr bool literal(std::string_view word)
    {
        if(text_.substr(pos_, word.size()) != word)
            return false;
        pos_ += word.size();
        return true;
    }

    constexpr bool value(int depth)
    {
        if(depth > 32)
            return false;
        switch(peek())
        {
        case '{': return object(depth);
        case '[': return array(depth);
        case '"': return string();
        case 't': return literal("true");
        case 'f': return literal("false");
        case 'n': return literal("null");
        default: return number();
        }
    }

    constexpr bool object(int depth)
    {
        ++pos_;
        ws();
        if(peek() == '}')
            return ++pos_, true;
        for(;;)
        {
            ws();
            if(peek() != '"' || !string())
                return false;
            ws();
            if(peek() != ':')
                return false;
            ++pos_;
            ws();
            if(!value(depth + 1))
                return false;
            ws();
            if(peek() == '}')
                return ++pos_, true;
            if(peek() != ',')
                return false;
            ++pos_;
        }
    }

    constexpr bool array(int depth)
    {
        ++pos_;
        ws();
        if(peek() == ']')
            return ++pos_, true;
        for(;;)
        {
            ws();
            if(!value(depth + 1))
                return false;
            ws();
            if(peek() == ']')
                return ++pos_, true;
            if(peek() != ',')
                return false;
            ++pos_;
        }
    }

    constexpr bool string()
    {
        ++pos_;
        while(!at_end())
        {
            char const c = text_[pos_++];
            if(c == '"')
                return true;
            if(static_cast<unsigned char>(c) < 0x20)
                return false;
            if(c == '\\')
            {
                char const e = peek();
                ++pos_;
                if(e == 'u')
                {
                    for(int i = 0; i < 4; ++i, ++pos_)
                    {
                        char const h = peek();
                        if(!((h >= '0' && h <= '9') || (h >= 'a' && h <= 'f') || (h >= 'A' && h <= 'F')))
                            return false;
                    }
                }
                else if(std::string_view("\"\\/bfnrt").find(e) == std::string_view::npos)
                    return false;
            }
        }
        return false;
    }

    constexpr bool digits()
    {
        std::size_t const start = pos_;
        while(peek() >= '0' && peek() <= '9')
            ++pos_;
        return pos_ > start;
    }

    constexpr bool number()
    {
        if(peek() == '-')
            ++pos_;
        if(peek() == '0')
            ++pos_;
        else if(!digits())
            return false;
        if(peek() == '.')
        {
            ++pos_;
            if(!digits())
                return false;
        }
        if(peek() == 'e' || peek() == 'E')
        {
            ++pos_;
            if(peek() == '+' || peek() == '-')
                ++pos_;
            if(!digits())
                return false;
        }
        return true;
    }

    std::string_view text_;
    std::size_t pos_ = 0;
};

/// The MCP rule for tool names: 1 to 64 of `[A-Za-z0-9_.-]`.
constexpr bool valid_tool_name(std::string_view name)
{
    if(name.empty() || name.size() > 64)
        return false;
    for(char c : name)
    {
        bool const ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
            c == '.' || c == '-';
        if(!ok)
            return false;
    }
    return true;
}

} // namespace agentio::detail

#endif
