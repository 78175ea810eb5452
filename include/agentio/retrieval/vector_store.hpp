//
// agentio/retrieval/vector_store.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Dense vectors in memory, scored by a SIMD dot product over all rows: an
// exact nearest-neighbour search, which at 100 000 rows of 256 dimensions
// takes a few milliseconds on one core (memory bandwidth bound), so no
// approximate index is needed at the sizes this library targets.
//

#ifndef AGENTIO_RETRIEVAL_VECTOR_STORE_HPP
#define AGENTIO_RETRIEVAL_VECTOR_STORE_HPP

#include <agentio/config.hpp>
#include <agentio/retrieval/detail/aligned_allocator.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace agentio::retrieval {

/// A row's id and its score, best first in every list this component returns.
struct ranked
{
    std::int64_t id = 0;
    double score = 0;
};

/** The dot product of two float32 vectors of `n` elements.

    AVX2 with FMA where the CPU has it (chosen once, at the first call), SSE2
    on other x86-64 CPUs, portable C++ elsewhere. Any `n`, any alignment. The
    paths sum in different orders, so results may differ in the last bits
    from one CPU to another.
*/
AGENTIO_DECL float dot(float const* a, float const* b, std::size_t n) noexcept;

/** Float32 vectors of one dimension, scored by dot product against a query.

    Rows are L2-normalised on `add`, so the dot product is the cosine. They
    live in one contiguous 32-byte-aligned buffer, each row padded with zeros
    to a multiple of 8 floats. Concurrent calls of `const` members are safe;
    `add` and `reserve` need exclusive access.
*/
class vector_store
{
public:
    /// An empty store of vectors with `dimensions` elements.
    explicit vector_store(std::size_t dimensions);

    /// The number of elements of every vector.
    std::size_t dimensions() const noexcept { return dimensions_; }

    /// The number of rows.
    std::size_t size() const noexcept { return ids_.size(); }

    /// Makes room for `rows` rows in all.
    void reserve(std::size_t rows);

    /// Removes every row.
    void clear() noexcept;

    /** Adds a row, L2-normalised (a zero vector stays zero).

        @throws std::invalid_argument when `vector.size() != dimensions()`.
    */
    void add(std::int64_t id, std::span<float const> vector);

    /** The `k` best rows by dot product with `query` (normalised here), best
        first, equal scores by smaller id; rows `keep(id)` refuses are skipped
        (`keep` is called once per row, from the calling thread).

        @throws std::invalid_argument when `query.size() != dimensions()`.
    */
    std::vector<ranked> top(std::span<float const> query, std::size_t k,
        std::function<bool(std::int64_t)> const& keep = {}) const;

    /// Row `index` (in order of `add`) as stored: normalised, `dimensions()` elements.
    std::span<float const> row(std::size_t index) const noexcept
    {
        return {data_.data() + index * stride_, dimensions_};
    }

    /// The id of row `index`.
    std::int64_t id(std::size_t index) const noexcept { return ids_[index]; }

private:
    std::size_t dimensions_;
    std::size_t stride_; // dimensions_ rounded up to a multiple of 8
    std::vector<float, detail::aligned_allocator<float, 32>> data_;
    std::vector<std::int64_t> ids_;
};

} // namespace agentio::retrieval

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/retrieval/impl/vector_store.ipp>
#endif

#endif
