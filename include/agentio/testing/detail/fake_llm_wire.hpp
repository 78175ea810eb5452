//
// agentio/testing/detail/fake_llm_wire.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The pure parts of the fake's wire format: ids shaped like the providers',
// cutting text into pieces and argument text into fragments (never inside a
// UTF-8 sequence), the `{"key": "value"}` rendering of streamed tool input,
// and the providers' error bodies. No I/O here.
//

#ifndef AGENTIO_TESTING_DETAIL_FAKE_LLM_WIRE_HPP
#define AGENTIO_TESTING_DETAIL_FAKE_LLM_WIRE_HPP

#include <agentio/json_text.hpp>
#include <agentio/text.hpp>

#include <boost/json/value.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>

namespace agentio::testing::detail {

enum class provider
{
    anthropic,
    openai
};

// --- ids ---------------------------------------------------------------------

// A per-thread generator: ids need to be unique, not secret.
inline std::uint64_t random_u64()
{
    thread_local std::mt19937_64 engine{std::random_device{}()};
    return engine();
}

inline void append_random(std::string& out, std::size_t n, std::string_view alphabet)
{
    for(std::size_t i = 0; i < n; ++i)
        out.push_back(alphabet[random_u64() % alphabet.size()]);
}

inline constexpr std::string_view base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

// `msg_01` + 22: 24 characters after the prefix, like the API's ids.
inline std::string make_id(std::string_view prefix, std::size_t random_chars)
{
    std::string id(prefix);
    append_random(id, random_chars, base62);
    return id;
}

inline std::string anthropic_message_id()
{
    return make_id("msg_01", 22);
}
inline std::string anthropic_tool_use_id()
{
    return make_id("toolu_01", 22);
}
inline std::string anthropic_request_id()
{
    return make_id("req_011C", 20);
}
inline std::string openai_completion_id()
{
    return make_id("chatcmpl-", 29);
}
inline std::string openai_call_id()
{
    return make_id("call_", 24);
}
inline std::string openai_request_id()
{
    std::string id = "req_";
    append_random(id, 32, "0123456789abcdef");
    return id;
}
inline std::string openai_fingerprint()
{
    std::string fp = "fp_";
    append_random(fp, 10, "0123456789abcdef");
    return fp;
}

// FNV-1a: a stable hash for attempt counters and generated signatures.
inline std::uint64_t fnv1a(std::string_view s, std::uint64_t h = 14695981039346656037ull) noexcept
{
    for(unsigned char c : s)
    {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

// A base64 string derived from `seed`, shaped like a thinking signature.
inline std::string make_signature(std::string_view seed)
{
    static constexpr std::string_view b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::uint64_t x = fnv1a(seed);
    std::string out;
    for(int i = 0; i < 16; ++i) // 16 × 6 base64 digits = 96 characters = 72 bytes
    {
        x += 0x9e3779b97f4a7c15ull; // splitmix64
        std::uint64_t z = x;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        for(int j = 0; j < 6; ++j, z >>= 6)
            out.push_back(b64[z & 63]);
    }
    return out;
}

// --- UTF-8 -------------------------------------------------------------------

using agentio::detail::utf8_ceil;

// --- cutting text into pieces --------------------------------------------------

// Words per piece, cycled: a few tokens per event for Anthropic, about one
// token per chunk for OpenAI (compare the fixtures' pieces).
inline constexpr std::array<std::size_t, 7> anthropic_words{2, 4, 3, 5, 3, 2, 4};
inline constexpr std::array<std::size_t, 7> openai_words{1, 1, 2, 1, 3, 1, 2};
inline constexpr std::size_t max_piece_code_points = 32;

// Bytes of argument-text fragments, cycled (the fixtures' are 9 to 16).
inline constexpr std::array<std::size_t, 8> fragment_bytes{11, 14, 13, 9, 15, 12, 16, 10};

inline bool is_space(char c) noexcept
{
    return c == ' ' || c == '\n' || c == '\t' || c == '\r';
}

/** Length in bytes of the next piece of `rest` (not empty).

    Word mode (`piece_chars == 0`): the piece starts with the whitespace
    before its first word and takes a few words, at most 32 code points.
*/
inline std::size_t next_text_piece(std::string_view rest, std::size_t index, provider p, std::size_t piece_chars)
{
    if(piece_chars != 0)
        return agentio::utf8_code_point_prefix(rest, piece_chars);
    std::size_t const words = p == provider::anthropic ? anthropic_words[index % anthropic_words.size()]
                                                       : openai_words[index % openai_words.size()];
    std::size_t end = 0;
    for(std::size_t w = 0; w < words && end < rest.size(); ++w)
    {
        std::size_t next = end;
        while(next < rest.size() && is_space(rest[next]))
            ++next;
        while(next < rest.size() && !is_space(rest[next]))
            ++next;
        if(w != 0 && agentio::utf8_code_point_prefix(rest, max_piece_code_points) < next)
            break; // the next word would make the piece too long
        end = next;
    }
    return std::min(end, agentio::utf8_code_point_prefix(rest, max_piece_code_points)); // one very long word is cut
}

/// Length in bytes of the next fragment of argument text.
inline std::size_t next_fragment(std::string_view rest, std::size_t index, std::size_t piece_chars)
{
    if(piece_chars != 0)
        return agentio::utf8_code_point_prefix(rest, piece_chars);
    return utf8_ceil(rest, std::min(rest.size(), fragment_bytes[index % fragment_bytes.size()]));
}

// --- JSON ----------------------------------------------------------------------

/// JSON with a space after `:` and `,`, the layout of streamed tool input.
inline void append_json_spaced(std::string& out, boost::json::value const& v)
{
    if(auto const* o = v.if_object())
    {
        out.push_back('{');
        bool first = true;
        for(auto const& kv : *o)
        {
            if(!first)
                out.append(", ");
            first = false;
            append_json_string(out, kv.key());
            out.append(": ");
            append_json_spaced(out, kv.value());
        }
        out.push_back('}');
    }
    else if(auto const* a = v.if_array())
    {
        out.push_back('[');
        bool first = true;
        for(auto const& e : *a)
        {
            if(!first)
                out.append(", ");
            first = false;
            append_json_spaced(out, e);
        }
        out.push_back(']');
    }
    else
        append_json(out, v);
}

// --- errors --------------------------------------------------------------------

/// `error.type` of an Anthropic error with this HTTP status.
inline std::string_view anthropic_error_type(unsigned status) noexcept
{
    switch(status)
    {
    case 400: return "invalid_request_error";
    case 401: return "authentication_error";
    case 402: return "billing_error";
    case 403: return "permission_error";
    case 404: return "not_found_error";
    case 409: return "conflict_error";
    case 413: return "request_too_large";
    case 429: return "rate_limit_error";
    case 504: return "timeout_error";
    case 529: return "overloaded_error";
    default: return status >= 500 ? "api_error" : "invalid_request_error";
    }
}

/// The API's usual message for an Anthropic error type.
inline std::string_view anthropic_error_message(std::string_view type) noexcept
{
    if(type == "overloaded_error")
        return "Overloaded";
    if(type == "rate_limit_error")
        return "Number of request tokens has exceeded your per-minute rate limit";
    if(type == "api_error")
        return "Internal server error";
    if(type == "authentication_error")
        return "invalid x-api-key";
    if(type == "permission_error")
        return "Your API key does not have permission to use the specified resource.";
    if(type == "request_too_large")
        return "Request exceeds the maximum allowed number of bytes.";
    if(type == "timeout_error")
        return "Request timed out";
    if(type == "billing_error")
        return "Your credit balance is too low to access the Anthropic API.";
    if(type == "not_found_error")
        return "Not found";
    return "Invalid request";
}

/// `{"type":"error","error":{"type":…,"message":…},"request_id":…}`
inline std::string anthropic_error_body(std::string_view type, std::string_view message, std::string_view request_id)
{
    std::string out = R"({"type":"error","error":{"type":)";
    append_json_string(out, type);
    out.append(R"(,"message":)");
    append_json_string(out, message);
    out.append(R"(},"request_id":)");
    append_json_string(out, request_id);
    out.push_back('}');
    return out;
}

/// The mid-stream error event's data, spaced as the API sends it.
inline std::string anthropic_error_event(std::string_view type, std::string_view message)
{
    std::string out = R"({"type": "error", "error": {"type": )";
    append_json_string(out, type);
    out.append(R"(, "message": )");
    append_json_string(out, message);
    out.append("}}");
    return out;
}

/// An OpenAI error: the body's `error` object parts.
struct openai_error
{
    std::string_view message;
    std::string_view type;
    std::string_view param = {}; // empty: null
    std::string_view code = {};  // empty: null
};

/// The usual OpenAI error for an HTTP status.
inline openai_error openai_error_for(unsigned status) noexcept
{
    switch(status)
    {
    case 429: return {"Rate limit reached for requests", "requests", {}, "rate_limit_exceeded"};
    case 401: return {"Incorrect API key provided.", "invalid_request_error", {}, "invalid_api_key"};
    case 403: return {"You are not allowed to sample from this model", "invalid_request_error"};
    case 404: return {"The requested resource was not found.", "invalid_request_error"};
    case 503:
    case 529: return {"The engine is currently overloaded, please try again later", "server_error"};
    default:
        if(status >= 500)
            return {"The server had an error while processing your request. Sorry about that!", "server_error"};
        return {"Invalid request", "invalid_request_error"};
    }
}

/// `{"error":{"message":…,"type":…,"param":…,"code":…}}`
inline std::string openai_error_body(openai_error const& e)
{
    auto nullable = [](std::string& out, std::string_view s) {
        if(s.empty())
            out.append("null");
        else
            append_json_string(out, s);
    };
    std::string out = R"({"error":{"message":)";
    append_json_string(out, e.message);
    out.append(R"(,"type":)");
    append_json_string(out, e.type);
    out.append(R"(,"param":)");
    nullable(out, e.param);
    out.append(R"(,"code":)");
    nullable(out, e.code);
    out.append("}}");
    return out;
}

/// OpenAI's `finish_reason` for an Anthropic stop reason.
inline std::string_view openai_finish_reason(std::string_view stop_reason) noexcept
{
    if(stop_reason == "end_turn" || stop_reason == "stop_sequence" || stop_reason == "pause_turn")
        return "stop";
    if(stop_reason == "tool_use")
        return "tool_calls";
    if(stop_reason == "max_tokens")
        return "length";
    if(stop_reason == "refusal")
        return "content_filter";
    return stop_reason;
}

} // namespace agentio::testing::detail

#endif
