// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The labour-law agent's configuration, read from the environment once at start-up.
#pragma once

#include <agentio/llm/environment.hpp>
#include <agentio/log.hpp>
#include <agentio/threads.hpp>

#include <boost/system/result.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace normativa {

/// Which embedder gives the dense half its vectors.
enum class embedder_kind
{
    lsa,   ///< the latent-semantic model fitted at ingest (no service)
    openai ///< an OpenAI-compatible /v1/embeddings endpoint
};

struct settings
{
    agentio::llm::model_settings model;                     // AGENT_PROVIDER, ANTHROPIC_*, OPENAI_*, AGENT_MODEL
    agentio::log::settings log;                             // AGENTIO_LOG_LEVEL, AGENTIO_LOG_FORMAT, AGENTIO_LOG_FILE
    unsigned max_tokens = 2048;                             // AGENT_MAX_TOKENS
    std::string index = "data/normativa.db";                // RAG_INDEX
    std::string store = "data/normativa_threads.db";        // RAG_STORE: the conversations (SQLite)
    std::vector<std::string> api_keys;                      // RAG_API_KEYS (comma-separated); empty: open, one user
    std::string host = "127.0.0.1";                         // RAG_HOST
    unsigned short port = 7004;                             // RAG_PORT
    std::string web_dir;                                    // RAG_WEB_DIR: the page; empty: next to the program
    embedder_kind embedder = embedder_kind::lsa;            // RAG_EMBEDDER: lsa | openai
    std::string embedding_model = "text-embedding-3-small"; // RAG_EMBEDDING_MODEL
    std::optional<unsigned> embedding_dimensions;           // RAG_EMBEDDING_DIMENSIONS
    std::string embedding_base_url;                         // RAG_EMBEDDING_BASE_URL (default OPENAI_BASE_URL)
    std::string embedding_api_key;                          // RAG_EMBEDDING_API_KEY (default OPENAI_API_KEY)
    double sparse_weight = 1;                               // RAG_FUSION_WEIGHTS: sparse=1,dense=1
    double dense_weight = 1;
    std::map<std::string, double, std::less<>> collection_weights{{"normativa", 1.0},
        {"sentencias", 0.8}};          // RAG_COLLECTION_WEIGHTS
    unsigned max_message_chars = 4000; // RAG_MAX_MESSAGE_CHARS
    unsigned max_tool_rounds = 6;      // RAG_MAX_TOOL_ROUNDS
    /// RAG_APPROVAL_TOOLS: the agent's tools whose calls wait for a person's approval (comma-separated), over the
    /// doors that can ask one (AG-UI, A2A; /v1 answers 409); the page's /api/chat never waits. Empty: none.
    std::vector<std::string> approval_tools;
    // AGENT_BUSY_POLICY: a message while its conversation answers another is refused (409), waits, or interrupts.
    agentio::threads::busy_policy busy_policy = agentio::threads::busy_policy::reject;

    /// Reads the variables; a malformed value is an error naming it (in Spanish).
    static boost::system::result<settings, std::string> from_environment();

    /// Why the model cannot be called (Spanish), or nothing.
    std::optional<std::string> llm_unavailable_reason() const;
};

/// "Estatuto de los Trabajadores": the law this application ships a corpus of.
inline constexpr char const* estatuto = "Estatuto de los Trabajadores";

} // namespace normativa
