//
// agentio/llm/impl/embeddings.ipp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_LLM_IMPL_EMBEDDINGS_IPP
#define AGENTIO_LLM_IMPL_EMBEDDINGS_IPP

#include <agentio/config.hpp>
#include <agentio/llm/detail/json_fields.hpp>

#include <boost/json/array.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/string.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <string>

namespace agentio::llm::openai {

namespace detail {

// The values of a base64 string of float32 little-endian numbers, appended to
// `out`. A decoder of our own: agentio/detail/base64.hpp is OpenSSL's, which
// the core component does not link. Padding may be left out (some servers
// do); anything else outside the RFC 4648 alphabet is refused.
AGENTIO_DECL bool append_float32_base64(std::string_view text, std::vector<float>& out, std::string& why)
{
    static constexpr auto table = [] {
        std::array<signed char, 256> t{};
        t.fill(-1);
        constexpr std::string_view alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        for(std::size_t i = 0; i < alphabet.size(); ++i)
            t[static_cast<unsigned char>(alphabet[i])] = static_cast<signed char>(i);
        return t;
    }();
    std::size_t padding = 0;
    while(padding < 2 && padding < text.size() && text[text.size() - 1 - padding] == '=')
        ++padding;
    if(padding != 0 && text.size() % 4 != 0)
    {
        why = "is not valid base64 (padding in the wrong place)";
        return false;
    }
    std::string_view const digits = text.substr(0, text.size() - padding);
    if(digits.size() % 4 == 1)
    {
        why = "is not valid base64 (a length of " + std::to_string(text.size()) + " characters)";
        return false;
    }
    std::string bytes;
    bytes.reserve(digits.size() / 4 * 3 + 2);
    std::uint32_t acc = 0;
    int bits = 0;
    for(std::size_t i = 0; i < digits.size(); ++i)
    {
        int const v = table[static_cast<unsigned char>(digits[i])];
        if(v < 0)
        {
            why = "is not valid base64 (character " + std::to_string(i) + ")";
            return false;
        }
        acc = (acc << 6) | static_cast<std::uint32_t>(v);
        bits += 6;
        if(bits >= 8)
        {
            bits -= 8;
            bytes.push_back(static_cast<char>((acc >> bits) & 0xff));
        }
    }
    if(bytes.size() % 4 != 0)
    {
        why = "decodes to " + std::to_string(bytes.size()) + " bytes, not a whole number of float32 values";
        return false;
    }
    out.reserve(out.size() + bytes.size() / 4);
    for(std::size_t i = 0; i < bytes.size(); i += 4)
    {
        auto byte = [&](std::size_t k) { return static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i + k])); };
        auto const f = std::bit_cast<float>(byte(0) | byte(1) << 8 | byte(2) << 16 | byte(3) << 24);
        if(!std::isfinite(f))
        {
            why = "has a value that is not a finite number (float " + std::to_string(i / 4) + ")";
            return false;
        }
        out.push_back(f);
    }
    return true;
}

AGENTIO_DECL error embeddings_protocol_error(std::string message)
{
    return {error::kind::protocol, 0, {}, "the embeddings answer" + std::move(message), false, {}, {}};
}

} // namespace detail

AGENTIO_DECL json::object make_embeddings_body(std::string_view model, std::span<std::string const> input,
    std::optional<unsigned> dimensions, std::string_view encoding_format)
{
    json::object body;
    body["model"] = model;
    json::array texts;
    texts.reserve(input.size());
    for(auto const& t : input)
        texts.emplace_back(t);
    body["input"] = std::move(texts);
    body["encoding_format"] = encoding_format;
    if(dimensions)
        body["dimensions"] = *dimensions;
    return body;
}

AGENTIO_DECL boost::system::result<embeddings, error> parse_embeddings_body(std::string_view body,
    std::size_t expected_count, std::optional<unsigned> expected_dimensions)
{
    using detail::embeddings_protocol_error;
    boost::system::error_code ec;
    auto const v = json::parse(body, ec);
    if(ec || !v.is_object())
        return embeddings_protocol_error(" is not a JSON object");
    auto const& o = v.get_object();
    auto const* data = o.if_contains("data");
    if(!data || !data->is_array())
        return embeddings_protocol_error(" has no `data` array");
    auto const& rows = data->get_array();
    if(rows.size() != expected_count)
        return embeddings_protocol_error(" has " + std::to_string(rows.size()) + " vectors for " +
            std::to_string(expected_count) + " inputs");

    embeddings out;
    std::vector<float> row;
    std::vector<bool> seen(expected_count, false);
    for(std::size_t i = 0; i < rows.size(); ++i)
    {
        std::string const at = "'s data[" + std::to_string(i) + "]";
        auto const* item = rows[i].if_object();
        if(!item)
            return embeddings_protocol_error(at + " is not an object");
        std::size_t index = i;
        if(auto const* ix = item->if_contains("index"))
        {
            std::uint64_t n = 0;
            if(auto const* u = ix->if_uint64())
                n = *u;
            else if(auto const* s = ix->if_int64(); s && *s >= 0)
                n = static_cast<std::uint64_t>(*s);
            else
                return embeddings_protocol_error(at + ".index is not a non-negative integer");
            if(n >= expected_count)
                return embeddings_protocol_error(at + ".index " + std::to_string(n) + " is out of range for " +
                    std::to_string(expected_count) + " inputs");
            index = static_cast<std::size_t>(n);
        }
        if(seen[index])
            return embeddings_protocol_error(" has two vectors for input " + std::to_string(index));
        seen[index] = true;

        row.clear();
        auto const* e = item->if_contains("embedding");
        if(e && e->is_string())
        {
            std::string why;
            if(!detail::append_float32_base64(e->get_string(), row, why))
                return embeddings_protocol_error(at + ".embedding " + why);
        }
        else if(e && e->is_array())
        {
            auto const& numbers = e->get_array();
            row.reserve(numbers.size());
            for(std::size_t k = 0; k < numbers.size(); ++k)
            {
                auto const& n = numbers[k];
                if(!n.is_number())
                    return embeddings_protocol_error(at + ".embedding[" + std::to_string(k) + "] is not a number");
                double const d = n.is_double() ? n.get_double()
                    : n.is_int64()             ? static_cast<double>(n.get_int64())
                                               : static_cast<double>(n.get_uint64());
                auto const f = static_cast<float>(d);
                if(!std::isfinite(f))
                    return embeddings_protocol_error(at + ".embedding[" + std::to_string(k) +
                        "] is not a finite float32");
                row.push_back(f);
            }
        }
        else
            return embeddings_protocol_error(at + ".embedding is neither an array of numbers nor a base64 string");

        if(row.empty())
            return embeddings_protocol_error(at + ".embedding is empty");
        if(out.dimensions == 0)
        {
            out.dimensions = row.size();
            if(expected_dimensions && out.dimensions != *expected_dimensions)
                return embeddings_protocol_error(" has vectors of " + std::to_string(out.dimensions) + " dimensions, " +
                    std::to_string(*expected_dimensions) + " were asked for");
            out.values.resize(expected_count * out.dimensions);
        }
        else if(row.size() != out.dimensions)
            return embeddings_protocol_error(at + ".embedding has " + std::to_string(row.size()) +
                " dimensions, the others " + std::to_string(out.dimensions));
        std::copy(row.begin(), row.end(), out.values.begin() + static_cast<std::ptrdiff_t>(index * out.dimensions));
    }
    if(auto const* u = o.if_contains("usage"); u && u->is_object())
        out.prompt_tokens = llm::detail::count_at(u->get_object(), "prompt_tokens", 0);
    return out;
}

} // namespace agentio::llm::openai

#endif
