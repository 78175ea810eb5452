//
// agentio/retrieval/detail/aligned_allocator.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_RETRIEVAL_DETAIL_ALIGNED_ALLOCATOR_HPP
#define AGENTIO_RETRIEVAL_DETAIL_ALIGNED_ALLOCATOR_HPP

#include <cstddef>
#include <new>

namespace agentio::retrieval::detail {

/// A minimal allocator for SIMD rows: `Alignment`-byte aligned storage.
template<class T, std::size_t Alignment>
struct aligned_allocator
{
    using value_type = T;

    template<class U>
    struct rebind
    {
        using other = aligned_allocator<U, Alignment>;
    };

    aligned_allocator() noexcept = default;
    template<class U>
    aligned_allocator(aligned_allocator<U, Alignment> const&) noexcept
    {
    }

    T* allocate(std::size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t{Alignment})); }
    void deallocate(T* p, std::size_t) noexcept { ::operator delete(p, std::align_val_t{Alignment}); }

    template<class U>
    bool operator==(aligned_allocator<U, Alignment> const&) const noexcept
    {
        return true;
    }
};

} // namespace agentio::retrieval::detail

#endif
