//
// agentio/llm/src.hpp
// ~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The compiled part of the providers (CMake component http): the Anthropic and
// OpenAI-compatible providers instantiated once, and the OpenAI embedder.
// Include it in exactly one source file of a program built with
// AGENTIO_SEPARATE_COMPILATION (see <agentio/config.hpp>), beside
// <agentio/http/src.hpp>.
//

#ifndef AGENTIO_LLM_SRC_HPP
#define AGENTIO_LLM_SRC_HPP

#include <agentio/config.hpp>

#ifdef AGENTIO_HEADER_ONLY
#error Define AGENTIO_SEPARATE_COMPILATION in every file of the program that includes this source.
#endif

#include <agentio/llm/anthropic.hpp>
#include <agentio/llm/openai.hpp>
#include <agentio/llm/openai_embeddings.hpp>

#include <agentio/llm/impl/openai_embeddings.ipp>

namespace agentio::llm {
template class model_stream<anthropic_wire>;
template class http_provider<anthropic_wire>;
template class model_stream<openai_wire>;
template class http_provider<openai_wire>;
} // namespace agentio::llm

#endif
