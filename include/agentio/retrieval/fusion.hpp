//
// agentio/retrieval/fusion.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Weighted reciprocal-rank fusion (Cormack, Clarke and Büttcher, 2009):
// score(d) = Σ weight_i / (k + rank_i(d)), ranks from 1. It reads ranks only,
// so BM25's unbounded scores and cosines in [-1, 1] need no calibration.
//

#ifndef AGENTIO_RETRIEVAL_FUSION_HPP
#define AGENTIO_RETRIEVAL_FUSION_HPP

#include <agentio/retrieval/vector_store.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

namespace agentio::retrieval {

/// One ranking to fuse, best first, and how much it counts.
struct fusion_input
{
    std::span<ranked const> ranking = {};
    double weight = 1;
};

/// The constants of the fusion.
struct rrf_options
{
    /// Damps the head of each list; 60 as in the paper.
    double k = 60;
    /// Each list is read to this depth (never less than 30).
    std::size_t depth = 30;
};

/// A fused result: its score and its rank in each input (0: absent).
struct fused
{
    std::int64_t id = 0;
    double score = 0;
    std::vector<std::uint32_t> ranks = {};
};

/** Fuses rankings; best first, ties by the best single rank, then by id, so
    the order never depends on a hash table's. */
inline std::vector<fused> reciprocal_rank_fusion(std::span<fusion_input const> inputs, rrf_options const& options = {})
{
    auto const depth = std::max<std::size_t>(options.depth, 30);
    std::vector<fused> out;
    std::unordered_map<std::int64_t, std::size_t> slot;
    for(std::size_t list = 0; list < inputs.size(); ++list)
    {
        auto const ranking = inputs[list].ranking.first(std::min(depth, inputs[list].ranking.size()));
        for(std::size_t r = 0; r < ranking.size(); ++r)
        {
            auto [it, fresh] = slot.try_emplace(ranking[r].id, out.size());
            if(fresh)
                out.push_back({ranking[r].id, 0, std::vector<std::uint32_t>(inputs.size(), 0)});
            auto& f = out[it->second];
            if(f.ranks[list] != 0)
                continue; // a list that repeats an id counts it once, at its best rank
            auto const rank = static_cast<std::uint32_t>(r + 1);
            f.ranks[list] = rank;
            f.score += inputs[list].weight / (options.k + rank);
        }
    }
    auto const best_rank = [](fused const& f) {
        std::uint32_t best = UINT32_MAX;
        for(auto r : f.ranks)
            if(r != 0)
                best = std::min(best, r);
        return best;
    };
    std::sort(out.begin(), out.end(), [&](fused const& a, fused const& b) {
        if(a.score != b.score)
            return a.score > b.score;
        if(auto const ra = best_rank(a), rb = best_rank(b); ra != rb)
            return ra < rb;
        return a.id < b.id;
    });
    return out;
}

} // namespace agentio::retrieval

#endif
