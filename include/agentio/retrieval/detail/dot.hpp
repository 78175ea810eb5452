//
// agentio/retrieval/detail/dot.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Float32 dot products (and y += a·x): AVX2+FMA chosen at run time on x86-64 CPUs that have
// it, SSE2 (part of x86-64) otherwise, plain C++ elsewhere. The library is
// built for baseline x86-64, so the AVX2 kernel is a function of its own with
// a target attribute, reached through a pointer chosen once. Not
// `target_clones`: GCC 12 mishandles it on inline functions.
//

#ifndef AGENTIO_RETRIEVAL_DETAIL_DOT_HPP
#define AGENTIO_RETRIEVAL_DETAIL_DOT_HPP

#include <cstddef>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define AGENTIO_RETRIEVAL_X86_64 1
#include <immintrin.h>
#endif

namespace agentio::retrieval::detail {

using dot_function = float (*)(float const*, float const*, std::size_t) noexcept;
using axpy_function = void (*)(float, float const*, float*, std::size_t) noexcept;

// Four accumulators, so the additions of neighbouring elements do not wait
// for each other (and the compiler may vectorise the body).
inline float dot_portable(float const* a, float const* b, std::size_t n) noexcept
{
    float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    std::size_t const whole = n - n % 4;
    std::size_t i = 0;
    for(; i < whole; i += 4)
    {
        s0 += a[i] * b[i];
        s1 += a[i + 1] * b[i + 1];
        s2 += a[i + 2] * b[i + 2];
        s3 += a[i + 3] * b[i + 3];
    }
    for(; i < n; ++i)
        s0 += a[i] * b[i];
    return (s0 + s1) + (s2 + s3);
}

// y += a·x.
inline void axpy_portable(float a, float const* x, float* y, std::size_t n) noexcept
{
    for(std::size_t i = 0; i < n; ++i)
        y[i] += a * x[i];
}

#ifdef AGENTIO_RETRIEVAL_X86_64

inline float horizontal_sum(__m128 v) noexcept
{
    __m128 const high = _mm_movehl_ps(v, v);             // [2, 3, 2, 3]
    __m128 const pair = _mm_add_ps(v, high);             // [0+2, 1+3, ...]
    __m128 const odd = _mm_shuffle_ps(pair, pair, 0x55); // [1+3, ...]
    return _mm_cvtss_f32(_mm_add_ss(pair, odd));
}

inline float dot_sse2(float const* a, float const* b, std::size_t n) noexcept
{
    __m128 s0 = _mm_setzero_ps(), s1 = _mm_setzero_ps(), s2 = _mm_setzero_ps(), s3 = _mm_setzero_ps();
    std::size_t i = 0;
    for(; i + 16 <= n; i += 16)
    {
        s0 = _mm_add_ps(s0, _mm_mul_ps(_mm_loadu_ps(a + i), _mm_loadu_ps(b + i)));
        s1 = _mm_add_ps(s1, _mm_mul_ps(_mm_loadu_ps(a + i + 4), _mm_loadu_ps(b + i + 4)));
        s2 = _mm_add_ps(s2, _mm_mul_ps(_mm_loadu_ps(a + i + 8), _mm_loadu_ps(b + i + 8)));
        s3 = _mm_add_ps(s3, _mm_mul_ps(_mm_loadu_ps(a + i + 12), _mm_loadu_ps(b + i + 12)));
    }
    for(; i + 4 <= n; i += 4)
        s0 = _mm_add_ps(s0, _mm_mul_ps(_mm_loadu_ps(a + i), _mm_loadu_ps(b + i)));
    float tail = 0;
    for(; i < n; ++i)
        tail += a[i] * b[i];
    return horizontal_sum(_mm_add_ps(_mm_add_ps(s0, s1), _mm_add_ps(s2, s3))) + tail;
}

__attribute__((target("avx2,fma"))) inline float dot_avx2(float const* a, float const* b, std::size_t n) noexcept
{
    __m256 s0 = _mm256_setzero_ps(), s1 = _mm256_setzero_ps(), s2 = _mm256_setzero_ps(), s3 = _mm256_setzero_ps();
    std::size_t i = 0;
    for(; i + 32 <= n; i += 32)
    {
        s0 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i), s0);
        s1 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i + 8), _mm256_loadu_ps(b + i + 8), s1);
        s2 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i + 16), _mm256_loadu_ps(b + i + 16), s2);
        s3 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i + 24), _mm256_loadu_ps(b + i + 24), s3);
    }
    for(; i + 8 <= n; i += 8)
        s0 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i), s0);
    __m256 const s = _mm256_add_ps(_mm256_add_ps(s0, s1), _mm256_add_ps(s2, s3));
    __m128 v = _mm_add_ps(_mm256_castps256_ps128(s), _mm256_extractf128_ps(s, 1));
    if(i + 4 <= n)
    {
        v = _mm_fmadd_ps(_mm_loadu_ps(a + i), _mm_loadu_ps(b + i), v);
        i += 4;
    }
    float tail = 0;
    for(; i < n; ++i)
        tail += a[i] * b[i];
    // Same reduction as horizontal_sum(), written here so that it is compiled
    // for this target too.
    __m128 const high = _mm_movehl_ps(v, v);
    __m128 const pair = _mm_add_ps(v, high);
    __m128 const odd = _mm_shuffle_ps(pair, pair, 0x55);
    return _mm_cvtss_f32(_mm_add_ss(pair, odd)) + tail;
}

inline void axpy_sse2(float a, float const* x, float* y, std::size_t n) noexcept
{
    __m128 const va = _mm_set1_ps(a);
    std::size_t i = 0;
    for(; i + 4 <= n; i += 4)
        _mm_storeu_ps(y + i, _mm_add_ps(_mm_loadu_ps(y + i), _mm_mul_ps(va, _mm_loadu_ps(x + i))));
    for(; i < n; ++i)
        y[i] += a * x[i];
}

__attribute__((target("avx2,fma"))) inline void axpy_avx2(float a, float const* x, float* y, std::size_t n) noexcept
{
    __m256 const va = _mm256_set1_ps(a);
    std::size_t i = 0;
    for(; i + 8 <= n; i += 8)
        _mm256_storeu_ps(y + i, _mm256_fmadd_ps(va, _mm256_loadu_ps(x + i), _mm256_loadu_ps(y + i)));
    for(; i < n; ++i)
        y[i] += a * x[i];
}

inline bool has_avx2_fma() noexcept
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

inline axpy_function select_axpy() noexcept
{
    return has_avx2_fma() ? &axpy_avx2 : &axpy_sse2;
}

inline dot_function select_dot() noexcept
{
    return has_avx2_fma() ? &dot_avx2 : &dot_sse2;
}

#else

inline axpy_function select_axpy() noexcept
{
    return &axpy_portable;
}

inline dot_function select_dot() noexcept
{
    return &dot_portable;
}

#endif

/// The fastest kernel of this CPU, chosen on first use (thread-safe).
inline dot_function dot_kernel() noexcept
{
    static dot_function const kernel = select_dot();
    return kernel;
}

/// y += a·x with the fastest kernel of this CPU.
inline axpy_function axpy_kernel() noexcept
{
    static axpy_function const kernel = select_axpy();
    return kernel;
}

} // namespace agentio::retrieval::detail

#endif
