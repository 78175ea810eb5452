//
// agentio/llm/embeddings.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Embeddings: the vectors of a batch of texts, what a dense retriever needs of
// an embedding model (`embedder`), and the OpenAI-compatible `/embeddings`
// wire format without any I/O (OpenAI, Ollama, vLLM, llama.cpp speak it).
// The HTTP embedder is in openai_embeddings.hpp.
//

#ifndef AGENTIO_LLM_EMBEDDINGS_HPP
#define AGENTIO_LLM_EMBEDDINGS_HPP

#include <agentio/config.hpp>
#include <agentio/llm/conversation.hpp>
#include <agentio/llm/provider.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>
#include <boost/system/result.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace agentio::llm {

/// Vectors of a batch of texts, row-major float32.
struct embeddings
{
    /// The length of every vector.
    std::size_t dimensions = 0;

    /// The vectors one after the other: `size() * dimensions` values.
    std::vector<float> values = {};

    /// Tokens of the inputs, as the server counted them (0 if it did not say).
    std::uint64_t prompt_tokens = 0;

    /// The number of vectors.
    std::size_t size() const noexcept { return dimensions == 0 ? 0 : values.size() / dimensions; }

    /// The vector of input `i`. @pre `i < size()`.
    std::span<float const> operator[](std::size_t i) const noexcept
    {
        return {values.data() + i * dimensions, dimensions};
    }
};

/// What a dense retriever needs of an embedding model (virtual: an application chooses it at run time).
class embedder
{
public:
    virtual ~embedder() = default;

    /// Names the vector space ("openai:text-embedding-3-small@256", "lsa:…"): vectors of different ids are never compared.
    virtual std::string model_id() const = 0;

    /** The vectors of `texts`, in their order.

        @param texts the inputs; the caller keeps them alive until the call completes
        @return one vector per text, or what went wrong
    */
    virtual asio::awaitable<boost::system::result<embeddings, error>> embed(std::span<std::string const> texts) = 0;
};

namespace openai {

/** The JSON body of `POST {base}/embeddings`:
    `{"model", "input": [...], "encoding_format", "dimensions"?}`.

    @param model the embedding model
    @param input the texts, one vector each
    @param dimensions shortens the vectors (text-embedding-3 models and servers that support it); unset: not sent
    @param encoding_format `"base64"` (float32 little-endian, what openai-node asks for) or `"float"`
*/
json::object make_embeddings_body(std::string_view model, std::span<std::string const> input,
    std::optional<unsigned> dimensions = {}, std::string_view encoding_format = "base64");

/** Reads the answer to an embeddings request:
    `{"object":"list","data":[{"object":"embedding","index":i,"embedding":[...] or "base64"}],"model",
    "usage":{"prompt_tokens","total_tokens"}}`.

    Rows are put in the order of their `index` (the API may send them in any
    order; without `index`, in the order received). Each `embedding` is an
    array of numbers or a base64 string of float32 little-endian values.
    Error statuses are not read here: see @ref error_from_body.

    @param body the response body of a 2xx answer
    @param expected_count the number of inputs sent
    @param expected_dimensions the `dimensions` asked for, if any
    @return the vectors; or an error of kind `protocol` naming the problem: not
    JSON, no `data`, a count or dimension mismatch, an index out of range or
    repeated, a value that is not a finite float32, bad base64.
*/
boost::system::result<embeddings, error> parse_embeddings_body(std::string_view body, std::size_t expected_count,
    std::optional<unsigned> expected_dimensions = {});

} // namespace openai

} // namespace agentio::llm

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/llm/impl/embeddings.ipp>
#endif

#endif
