//
// agentio/retrieval/observed_index.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// An index that times and counts every read of another, for Prometheus:
// how long the sparse half of a search, a fetch of chunks or the loading of
// the vectors takes, whatever the database. It goes between the index an
// application opens and `open_searcher`, so the searcher's reads are the
// ones recorded and neither side knows about metrics.
//
//   auto index = retrieval::sqlite_index::open(path).value();
//   retrieval::observed_index observed(std::move(index), registry);
//   auto opened = (co_await retrieval::open_searcher(observed, std::move(options))).value();
//

#ifndef AGENTIO_RETRIEVAL_OBSERVED_INDEX_HPP
#define AGENTIO_RETRIEVAL_OBSERVED_INDEX_HPP

#include <agentio/metrics.hpp>
#include <agentio/retrieval/index.hpp>
#include <agentio/trace/observed_calls.hpp>

#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentio::retrieval {

/** An @ref index that forwards every call to an inner index and records it
    in a metrics registry:

    - `agentio_index_operation_duration_seconds{index, operation}`, a
      histogram over `metrics::storage_latency_buckets()`;
    - `agentio_index_operations_total{index, operation, outcome}`, where
      `outcome` is `ok`, or `error` for a result holding an error (or a
      call that threw).

    `operation` is the method's name (`sparse`, `chunks`, `article`,
    `laws`, `stats`, `load_vectors`, `load_model`); `index` is the name
    given at construction, for an application that searches more than one.
    Results and errors pass through unchanged.

    Only the interface is reachable through it: a backend's own methods are
    called on `inner()`.
*/
class observed_index final : public index
{
public:
    /** Owns `inner` and records into `registry`, which must outlive it.
        @param name The value of the `index` label.
        @throws std::invalid_argument when `inner` is null, or the metrics
            are registered already with other help or labels. */
    observed_index(std::unique_ptr<index> inner, metrics::registry& registry, std::string name = "index")
        : observed_index(checked(inner.get()), registry, std::move(name))
    {
        owned_ = std::move(inner);
    }

    /** Records the calls of `inner`, which it does not own: `inner` must
        outlive it. The rest as the owning constructor. */
    observed_index(index& inner, metrics::registry& registry, std::string name = "index")
        : inner_(inner)
        , ops_(registry.histogram("agentio_index_operation_duration_seconds",
                   "Time a retrieval index operation took, by index and operation.", {"index", "operation"},
                   metrics::storage_latency_buckets()),
              registry.counter("agentio_index_operations_total",
                  "Retrieval index operations ended, by index, operation and outcome (ok, error).",
                  {"index", "operation", "outcome"}),
              std::move(name))
    {
    }

    /// The index it forwards to, for what only the backend offers.
    index& inner() noexcept { return inner_; }

    asio::awaitable<result<std::vector<ranked>>> sparse(std::vector<std::string> terms,
        std::vector<std::string> collections, std::size_t limit) override
    {
        return ops_.timed("sparse", inner_.sparse(std::move(terms), std::move(collections), limit));
    }
    asio::awaitable<result<std::vector<chunk>>> chunks(std::vector<std::int64_t> ids) override
    {
        return ops_.timed("chunks", inner_.chunks(std::move(ids)));
    }
    asio::awaitable<result<std::vector<chunk>>> article(std::string law, std::string article_number,
        std::string paragraph) override
    {
        return ops_.timed("article", inner_.article(std::move(law), std::move(article_number), std::move(paragraph)));
    }
    asio::awaitable<result<std::map<std::string, std::size_t, std::less<>>>> laws() override
    {
        return ops_.timed("laws", inner_.laws());
    }
    asio::awaitable<result<index_stats>> stats() override { return ops_.timed("stats", inner_.stats()); }
    asio::awaitable<result<dense_corpus>> load_vectors(std::string model_id) override
    {
        return ops_.timed("load_vectors", inner_.load_vectors(std::move(model_id)));
    }
    asio::awaitable<result<std::optional<std::string>>> load_model(std::string name) override
    {
        return ops_.timed("load_model", inner_.load_model(std::move(name)));
    }

private:
    static index& checked(index* inner)
    {
        if(!inner)
            throw std::invalid_argument("agentio::retrieval::observed_index: no inner index");
        return *inner;
    }

    std::unique_ptr<index> owned_; // null when the caller owns the inner index
    index& inner_;
    trace::observed_calls ops_;
};

} // namespace agentio::retrieval

#endif
