// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Retrieval quality on labelled questions: recall@5 and MRR of BM25 alone,
// the latent-semantic vectors alone and their fusion, on the questions as a
// person writes them and as the keywords a model would send.
#pragma once

#include <agentio/retrieval.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>
#include <boost/system/result.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace normativa {

struct quality_question
{
    std::string question;
    std::string keywords;
    std::vector<std::string> articles; ///< any of them answers it
};

/// Reads {"questions": [{question, keywords, articles}]}.
boost::system::result<std::vector<quality_question>, std::string> load_questions(std::filesystem::path const& path);

struct quality_row
{
    std::string method; ///< sparse, dense, hybrid
    std::string form;   ///< question, keywords
    double recall_at_5 = 0;
    double mrr = 0; ///< 1/rank of the first chunk of a right article within 30, else 0
    std::size_t questions = 0;
};

/// Measures every method on both forms.
boost::asio::awaitable<agentio::retrieval::result<std::vector<quality_row>>>
measure_quality(agentio::retrieval::searcher& search, std::vector<quality_question> const& questions);

/// The rows as a table for a terminal, and as JSON.
std::string quality_table(std::vector<quality_row> const& rows);
boost::json::array quality_json(std::vector<quality_row> const& rows);

} // namespace normativa
