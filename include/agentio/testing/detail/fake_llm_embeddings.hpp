//
// agentio/testing/detail/fake_llm_embeddings.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The fake's `POST /v1/embeddings`: reading the request as OpenAI does, the
// vectors (feature hashing of words: deterministic, not semantic) and the
// answer body, floats or base64. No I/O here.
//

#ifndef AGENTIO_TESTING_DETAIL_FAKE_LLM_EMBEDDINGS_HPP
#define AGENTIO_TESTING_DETAIL_FAKE_LLM_EMBEDDINGS_HPP

#include <agentio/detail/base64.hpp>
#include <agentio/json_text.hpp>
#include <agentio/testing/detail/fake_llm_request.hpp>
#include <agentio/testing/detail/fake_llm_wire.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <bit>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agentio::testing::detail {

// OpenAI's limit on inputs per request.
inline constexpr std::size_t max_embedding_inputs = 2048;

// The words of a text: runs of letters and digits, lower-cased (ASCII and
// Latin-1 letters; other letters are kept as they are). Punctuation and
// symbols separate words: ASCII, Latin-1 (`¿`, `¡`, `«`) and the General and
// CJK Punctuation blocks (`—`, `“`, `…`, `。`). Bytes that are not UTF-8
// belong to words.
inline std::vector<std::string> embedding_words(std::string_view text)
{
    std::vector<std::string> words;
    std::string word;
    auto flush = [&] {
        if(!word.empty())
            words.push_back(word);
        word.clear();
    };
    for(std::size_t i = 0; i < text.size();)
    {
        auto const b = static_cast<unsigned char>(text[i]);
        if(b < 0x80)
        {
            if((b >= '0' && b <= '9') || (b >= 'a' && b <= 'z'))
                word.push_back(static_cast<char>(b));
            else if(b >= 'A' && b <= 'Z')
                word.push_back(static_cast<char>(b - 'A' + 'a'));
            else
                flush();
            ++i;
            continue;
        }
        std::size_t const n = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
        char32_t cp = n == 4 ? b & 0x07u : n == 3 ? b & 0x0fu : b & 0x1fu;
        bool valid = n > 1 && i + n <= text.size();
        for(std::size_t k = 1; valid && k < n; ++k)
        {
            auto const c = static_cast<unsigned char>(text[i + k]);
            valid = (c & 0xc0) == 0x80;
            cp = (cp << 6) | (c & 0x3fu);
        }
        if(!valid)
        {
            word.push_back(text[i++]);
            continue;
        }
        bool const separator = (cp >= 0x80 && cp <= 0xbf) || cp == 0xd7 || cp == 0xf7 ||
            (cp >= 0x2000 && cp <= 0x206f) || (cp >= 0x3000 && cp <= 0x303f);
        if(separator)
            flush();
        else if(cp >= 0xc0 && cp <= 0xde) // Latin-1 capitals: the small letter is 0x20 further
        {
            cp += 0x20;
            word.push_back(static_cast<char>(0xc0 | (cp >> 6)));
            word.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
        }
        else
            word.append(text.substr(i, n));
        i += n;
    }
    flush();
    return words;
}

/** The fake's vector of some words: feature hashing, not meaning.

    Each word adds ±1 to one component: the component is its FNV-1a hash
    modulo `dimensions`, the sign the hash's top bit. The sum is scaled to
    unit length (L2). Texts sharing words get close vectors; synonyms do not.
    No words: the zero vector.
*/
inline std::vector<float> hashed_embedding(std::vector<std::string> const& words, std::size_t dimensions)
{
    std::vector<double> sum(dimensions, 0.0);
    for(auto const& w : words)
    {
        std::uint64_t const h = fnv1a(w);
        sum[h % dimensions] += (h >> 63) != 0 ? -1.0 : 1.0;
    }
    double norm = 0;
    for(double v : sum)
        norm += v * v;
    norm = std::sqrt(norm);
    std::vector<float> out(dimensions, 0.0f);
    if(norm > 0)
        for(std::size_t i = 0; i < dimensions; ++i)
            out[i] = static_cast<float>(sum[i] / norm);
    return out;
}

/// The vector of a text, see the other overload.
inline std::vector<float> hashed_embedding(std::string_view text, std::size_t dimensions)
{
    return hashed_embedding(embedding_words(text), dimensions);
}

// What the fake needs to know about a valid embeddings request.
struct embeddings_request
{
    std::string model;
    std::vector<std::vector<std::string>> inputs; // the words of each input (token ids as decimal words)
    bool base64 = false;
    std::optional<std::int64_t> dimensions;
    std::uint64_t input_hash = 0; // counts fault attempts per input
};

// `Invalid type for 'p': expected X, but got Y instead.`, as OpenAI words it.
inline api_failure openai_invalid_type(std::string const& param, std::string_view expected, json::value const& got)
{
    return openai_invalid("Invalid type for '" + param + "': expected " + std::string(expected) + ", but got " +
            std::string(to_string(got.kind())) + " instead.",
        param, "invalid_type");
}

// OpenAI's answer to an empty text, or an empty list.
inline api_failure openai_invalid_input()
{
    return openai_invalid(
        "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.",
        "input");
}

// Token ids as words: an array of non-negative integers.
inline bool read_tokens(json::array const& a, std::vector<std::string>& words)
{
    for(auto const& t : a)
    {
        if(t.is_uint64())
            words.push_back(std::to_string(t.get_uint64()));
        else if(t.is_int64() && t.get_int64() >= 0)
            words.push_back(std::to_string(t.get_int64()));
        else
            return false;
    }
    return true;
}

// Validates an embeddings request as OpenAI would (`input` a string, strings,
// token ids or lists of token ids; `encoding_format`; `dimensions` an
// integer); the range of `dimensions` is checked against the scenario later.
inline std::optional<api_failure> read_embeddings_request(json::object const& body, embeddings_request& r)
{
    auto const* model = body.if_contains("model");
    if(!model || !model->is_string())
        return openai_invalid("you must provide a model parameter");
    auto const* input = body.if_contains("input");
    if(!input)
        return openai_invalid("Missing required parameter: 'input'.", "input", "missing_required_parameter");
    constexpr std::string_view input_kinds =
        "a string, an array of strings, an array of integers or an array of arrays of integers";
    if(auto const* s = input->if_string())
    {
        if(s->empty())
            return openai_invalid_input();
        r.inputs.push_back(embedding_words(*s));
    }
    else if(auto const* a = input->if_array())
    {
        if(a->empty())
            return openai_invalid_input();
        if(a->size() > max_embedding_inputs)
            return openai_invalid("Invalid 'input': array too long. Expected an array with maximum length " +
                    std::to_string(max_embedding_inputs) + ", but got an array with length " +
                    std::to_string(a->size()) + " instead.",
                "input", "array_above_max_length");
        if(a->front().is_number())
        {
            r.inputs.emplace_back();
            if(!read_tokens(*a, r.inputs.back()))
                return openai_invalid_type("input", input_kinds, *input);
        }
        else
            for(std::size_t i = 0; i < a->size(); ++i)
            {
                auto const& item = (*a)[i];
                std::string const param = "input[" + std::to_string(i) + "]";
                if(auto const* text = item.if_string())
                {
                    if(text->empty())
                        return openai_invalid_input();
                    r.inputs.push_back(embedding_words(*text));
                }
                else if(auto const* tokens = item.if_array(); tokens && !tokens->empty())
                {
                    r.inputs.emplace_back();
                    if(!read_tokens(*tokens, r.inputs.back()))
                        return openai_invalid_type(param, "an array of integers", item);
                }
                else if(item.is_array())
                    return openai_invalid_input();
                else
                    return openai_invalid_type(param, "a string or an array of integers", item);
            }
    }
    else
        return openai_invalid_type("input", input_kinds, *input);

    if(auto const* f = body.if_contains("encoding_format"); f && !f->is_null())
    {
        if(!f->is_string())
            return openai_invalid_type("encoding_format", "a string", *f);
        std::string_view const format = f->get_string();
        if(format != "float" && format != "base64")
            return openai_invalid("Invalid value: '" + std::string(format) +
                    "'. Supported values are: 'float' and 'base64'.",
                "encoding_format", "invalid_value");
        r.base64 = format == "base64";
    }
    if(auto const* d = body.if_contains("dimensions"); d && !d->is_null())
    {
        if(d->is_int64())
            r.dimensions = d->get_int64();
        else if(d->is_uint64())
            r.dimensions = INT64_MAX;
        else
            return openai_invalid_type("dimensions", "an integer", *d);
    }
    r.model = std::string(model->get_string());
    r.input_hash = fnv1a(to_json_text(*input));
    return std::nullopt;
}

// The `dimensions` asked for, checked against the model's; the model's when none.
inline std::optional<api_failure> embedding_dimensions(embeddings_request const& r, unsigned model_dimensions,
    std::size_t& dimensions)
{
    dimensions = model_dimensions;
    if(!r.dimensions)
        return std::nullopt;
    if(*r.dimensions < 1)
        return openai_invalid("Invalid 'dimensions': integer below minimum value. Expected a value >= 1, but got " +
                std::to_string(*r.dimensions) + " instead.",
            "dimensions", "integer_below_min_value");
    if(*r.dimensions > static_cast<std::int64_t>(model_dimensions))
        return openai_invalid("Invalid 'dimensions': integer above maximum value. Expected a value <= " +
                std::to_string(model_dimensions) + ", but got " + std::to_string(*r.dimensions) + " instead.",
            "dimensions", "integer_above_max_value");
    dimensions = static_cast<std::size_t>(*r.dimensions);
    return std::nullopt;
}

// The answer: `{"object":"list","data":[{"object":"embedding","index":i,
// "embedding":[...]}],"model":...,"usage":{"prompt_tokens":N,"total_tokens":N}}`,
// the vectors as shortest round-trip float32 numbers, or as base64 of their
// little-endian bytes; a token is a word.
inline std::string embeddings_body(embeddings_request const& r, std::string_view model, std::size_t dimensions)
{
    std::string out = R"({"object":"list","data":[)";
    std::uint64_t tokens = 0;
    std::string bytes;
    for(std::size_t i = 0; i < r.inputs.size(); ++i)
    {
        tokens += r.inputs[i].size();
        auto const v = hashed_embedding(r.inputs[i], dimensions);
        if(i != 0)
            out.push_back(',');
        out.append(R"({"object":"embedding","index":)");
        out.append(std::to_string(i));
        out.append(R"(,"embedding":)");
        if(r.base64)
        {
            bytes.clear();
            for(float f : v)
            {
                auto const u = std::bit_cast<std::uint32_t>(f);
                for(int k = 0; k < 4; ++k)
                    bytes.push_back(static_cast<char>((u >> (8 * k)) & 0xff));
            }
            out.push_back('"');
            out.append(agentio::detail::base64_encode(bytes));
            out.push_back('"');
        }
        else
        {
            out.push_back('[');
            for(std::size_t k = 0; k < v.size(); ++k)
            {
                if(k != 0)
                    out.push_back(',');
                char buf[32];
                auto const res = std::to_chars(buf, buf + sizeof buf, v[k]);
                out.append(buf, res.ptr);
            }
            out.push_back(']');
        }
        out.push_back('}');
    }
    out.append(R"(],"model":)");
    append_json_string(out, model);
    out.append(R"(,"usage":{"prompt_tokens":)");
    out.append(std::to_string(tokens));
    out.append(R"(,"total_tokens":)");
    out.append(std::to_string(tokens));
    out.append("}}");
    return out;
}

} // namespace agentio::testing::detail

#endif
