//
// agentio/retrieval/detail/dense_kernels.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The linear algebra of the randomized truncated SVD (lsa_model::fit), in
// double precision: sparse (CSR) times dense products, the Gram matrix XᵀX,
// X times a small matrix, Cholesky QR and a cyclic Jacobi eigensolver.
//
// Rows of dense matrices are padded with zeros to a multiple of 4 doubles, so
// the kernels work on whole 4-double vectors (GCC vector extensions). The
// four hot kernels are compiled twice, for baseline x86-64 and for AVX2, and
// chosen at run time. Both copies perform the same operations in the same
// order, without FMA (which would round differently), so a fitted model is
// the same bytes whichever copy ran.
//

#ifndef AGENTIO_RETRIEVAL_DETAIL_DENSE_KERNELS_HPP
#define AGENTIO_RETRIEVAL_DETAIL_DENSE_KERNELS_HPP

#include <agentio/retrieval/detail/aligned_allocator.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <vector>

namespace agentio::retrieval::detail {

// Four doubles, loaded and stored at any 8-byte alignment, aliasing double.
typedef double double4 __attribute__((vector_size(32), aligned(8), may_alias));

#define AGENTIO_RETRIEVAL_KERNEL inline __attribute__((always_inline))

/// A dense row-major matrix of doubles, rows padded with zeros to `stride`.
struct dense_matrix
{
    std::size_t rows = 0;
    std::size_t cols = 0;
    std::size_t stride = 0;
    std::vector<double, aligned_allocator<double, 64>> values;

    dense_matrix() = default;
    dense_matrix(std::size_t r, std::size_t c) : rows(r), cols(c), stride((c + 3) / 4 * 4), values(r * stride, 0.0) {}

    double* row(std::size_t i) noexcept { return values.data() + i * stride; }
    double const* row(std::size_t i) const noexcept { return values.data() + i * stride; }
    double& operator()(std::size_t i, std::size_t j) noexcept { return values[i * stride + j]; }
    double operator()(std::size_t i, std::size_t j) const noexcept { return values[i * stride + j]; }
};

/// A sparse matrix in compressed sparse row form.
struct csr_matrix
{
    std::size_t rows = 0;
    std::size_t cols = 0;
    std::vector<std::size_t> offsets; // rows + 1
    std::vector<std::uint32_t> columns;
    std::vector<double> values;
};

// out = a · in (out: a.rows × in.cols). Gathers rows of `in`, four nonzeros at
// a time, into the output row, which stays in L1.
AGENTIO_RETRIEVAL_KERNEL void gather_product_kernel(csr_matrix const& a, dense_matrix const& in, dense_matrix& out)
{
    std::size_t const width = in.stride;
    for(std::size_t r = 0; r < a.rows; ++r)
    {
        double* o = out.row(r);
        std::fill(o, o + width, 0.0);
        std::size_t k = a.offsets[r];
        std::size_t const end = a.offsets[r + 1];
        for(; k + 4 <= end; k += 4)
        {
            double const v0 = a.values[k], v1 = a.values[k + 1], v2 = a.values[k + 2], v3 = a.values[k + 3];
            double const* x0 = in.row(a.columns[k]);
            double const* x1 = in.row(a.columns[k + 1]);
            double const* x2 = in.row(a.columns[k + 2]);
            double const* x3 = in.row(a.columns[k + 3]);
            for(std::size_t j = 0; j < width; j += 4)
            {
                double4 const sum = (v0 * *(double4 const*)(x0 + j) + v1 * *(double4 const*)(x1 + j)) +
                    (v2 * *(double4 const*)(x2 + j) + v3 * *(double4 const*)(x3 + j));
                *(double4*)(o + j) += sum;
            }
        }
        for(; k < end; ++k)
        {
            double const v = a.values[k];
            double const* x = in.row(a.columns[k]);
            for(std::size_t j = 0; j < width; j += 4)
                *(double4*)(o + j) += v * *(double4 const*)(x + j);
        }
    }
}

// out = aᵀ · in (out: a.cols × in.cols). Scatters each row of `in`: with
// Zipf-distributed terms the output rows of frequent terms stay in cache.
AGENTIO_RETRIEVAL_KERNEL void scatter_product_kernel(csr_matrix const& a, dense_matrix const& in, dense_matrix& out)
{
    std::size_t const width = in.stride;
    std::fill(out.values.begin(), out.values.end(), 0.0);
    for(std::size_t r = 0; r < a.rows; ++r)
    {
        double const* x = in.row(r);
        for(std::size_t k = a.offsets[r]; k < a.offsets[r + 1]; ++k)
        {
            double const v = a.values[k];
            double* o = out.row(a.columns[k]);
            for(std::size_t j = 0; j < width; j += 4)
                *(double4*)(o + j) += v * *(double4 const*)(x + j);
        }
    }
}

// The upper triangle (and a few entries below it) of g = xᵀx. Eight rows of x
// at a time: each load and store of g then carries eight products.
AGENTIO_RETRIEVAL_KERNEL void gram_kernel(dense_matrix const& x, dense_matrix& g, double const* zero_row)
{
    std::fill(g.values.begin(), g.values.end(), 0.0);
    std::size_t const width = x.stride;
    for(std::size_t i0 = 0; i0 < x.rows; i0 += 8)
    {
        double const* p[8];
        for(std::size_t r = 0; r < 8; ++r)
            p[r] = i0 + r < x.rows ? x.row(i0 + r) : zero_row;
        for(std::size_t a = 0; a < x.cols; ++a)
        {
            double const s0 = p[0][a], s1 = p[1][a], s2 = p[2][a], s3 = p[3][a];
            double const s4 = p[4][a], s5 = p[5][a], s6 = p[6][a], s7 = p[7][a];
            double* ga = g.row(a);
            for(std::size_t b = a & ~std::size_t(3); b < width; b += 4)
            {
                double4 const sum = ((s0 * *(double4 const*)(p[0] + b) + s1 * *(double4 const*)(p[1] + b)) +
                                        (s2 * *(double4 const*)(p[2] + b) + s3 * *(double4 const*)(p[3] + b))) +
                    ((s4 * *(double4 const*)(p[4] + b) + s5 * *(double4 const*)(p[5] + b)) +
                        (s6 * *(double4 const*)(p[6] + b) + s7 * *(double4 const*)(p[7] + b)));
                *(double4*)(ga + b) += sum;
            }
        }
    }
}

// out = x · m (x.cols == m.rows). With `upper`, m is upper triangular and row
// i is read from column i on. Four rows of x at a time share each row of m.
AGENTIO_RETRIEVAL_KERNEL void multiply_kernel(dense_matrix const& x, dense_matrix const& m, bool upper,
    dense_matrix& out, double* scratch)
{
    std::size_t const width = m.stride;
    for(std::size_t i0 = 0; i0 < x.rows; i0 += 4)
    {
        double const* p[4];
        double* o[4];
        for(std::size_t r = 0; r < 4; ++r)
        {
            bool const real = i0 + r < x.rows;
            p[r] = real ? x.row(i0 + r) : scratch;
            o[r] = real ? out.row(i0 + r) : scratch + x.stride + r * width;
            std::fill(o[r], o[r] + width, 0.0);
        }
        for(std::size_t i = 0; i < x.cols; ++i)
        {
            double const s0 = p[0][i], s1 = p[1][i], s2 = p[2][i], s3 = p[3][i];
            double const* mi = m.row(i);
            for(std::size_t b = upper ? (i & ~std::size_t(3)) : 0; b < width; b += 4)
            {
                double4 const v = *(double4 const*)(mi + b);
                *(double4*)(o[0] + b) += s0 * v;
                *(double4*)(o[1] + b) += s1 * v;
                *(double4*)(o[2] + b) += s2 * v;
                *(double4*)(o[3] + b) += s3 * v;
            }
        }
    }
}

/// The kernels above, compiled for one instruction set.
struct dense_kernels
{
    void (*gather_product)(csr_matrix const&, dense_matrix const&, dense_matrix&);
    void (*scatter_product)(csr_matrix const&, dense_matrix const&, dense_matrix&);
    void (*gram)(dense_matrix const&, dense_matrix&, double const*);
    void (*multiply)(dense_matrix const&, dense_matrix const&, bool, dense_matrix&, double*);
};

inline void gather_product_base(csr_matrix const& a, dense_matrix const& in, dense_matrix& out)
{
    gather_product_kernel(a, in, out);
}
inline void scatter_product_base(csr_matrix const& a, dense_matrix const& in, dense_matrix& out)
{
    scatter_product_kernel(a, in, out);
}
inline void gram_base(dense_matrix const& x, dense_matrix& g, double const* zero_row)
{
    gram_kernel(x, g, zero_row);
}
inline void multiply_base(dense_matrix const& x, dense_matrix const& m, bool upper, dense_matrix& out, double* scratch)
{
    multiply_kernel(x, m, upper, out, scratch);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// AVX2 without FMA: twice the width, the same roundings.
__attribute__((target("avx2"))) inline void gather_product_avx2(csr_matrix const& a, dense_matrix const& in,
    dense_matrix& out)
{
    gather_product_kernel(a, in, out);
}
__attribute__((target("avx2"))) inline void scatter_product_avx2(csr_matrix const& a, dense_matrix const& in,
    dense_matrix& out)
{
    scatter_product_kernel(a, in, out);
}
__attribute__((target("avx2"))) inline void gram_avx2(dense_matrix const& x, dense_matrix& g, double const* zero_row)
{
    gram_kernel(x, g, zero_row);
}
__attribute__((target("avx2"))) inline void multiply_avx2(dense_matrix const& x, dense_matrix const& m, bool upper,
    dense_matrix& out, double* scratch)
{
    multiply_kernel(x, m, upper, out, scratch);
}
#endif

/// The kernels for this CPU (`portable`: the baseline ones).
inline dense_kernels select_dense_kernels(bool portable = false) noexcept
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    __builtin_cpu_init();
    if(!portable && __builtin_cpu_supports("avx2"))
        return {&gather_product_avx2, &scatter_product_avx2, &gram_avx2, &multiply_avx2};
#else
    (void)portable;
#endif
    return {&gather_product_base, &scatter_product_base, &gram_base, &multiply_base};
}

/// Linear algebra on top of one set of kernels.
class dense_algebra
{
public:
    explicit dense_algebra(dense_kernels kernels) noexcept : k_(kernels) {}

    void gather_product(csr_matrix const& a, dense_matrix const& in, dense_matrix& out) const
    {
        out = dense_matrix(a.rows, in.cols);
        k_.gather_product(a, in, out);
    }

    void scatter_product(csr_matrix const& a, dense_matrix const& in, dense_matrix& out) const
    {
        out = dense_matrix(a.cols, in.cols);
        k_.scatter_product(a, in, out);
    }

    /// xᵀx, symmetric.
    dense_matrix gram(dense_matrix const& x) const
    {
        dense_matrix g(x.cols, x.cols);
        std::vector<double, aligned_allocator<double, 64>> zero(x.stride, 0.0);
        k_.gram(x, g, zero.data());
        for(std::size_t a = 0; a < g.rows; ++a)
            for(std::size_t b = 0; b < a; ++b)
                g(a, b) = g(b, a);
        return g;
    }

    /// x · m; `upper` when m is upper triangular.
    dense_matrix multiply(dense_matrix const& x, dense_matrix const& m, bool upper = false) const
    {
        dense_matrix out(x.rows, m.cols);
        std::vector<double, aligned_allocator<double, 64>> scratch(x.stride + 4 * m.stride, 0.0);
        k_.multiply(x, m, upper, out, scratch.data());
        return out;
    }

    /** Orthonormalises the columns of `x` by Cholesky QR, `passes` times
        (twice gives orthogonality to rounding error; once spans the same
        space, enough between power iterations). A column that is, to
        working precision, a combination of earlier ones becomes zero.
    */
    void orthonormalize(dense_matrix& x, int passes) const
    {
        for(int pass = 0; pass < passes; ++pass)
        {
            dense_matrix const g = gram(x);
            x = multiply(x, inverse_cholesky_factor(g), true);
        }
    }

private:
    // R⁻¹ for G = RᵀR with R upper triangular; rows and columns of pivots
    // below tolerance (dependent columns) are zero.
    static dense_matrix inverse_cholesky_factor(dense_matrix const& g)
    {
        std::size_t const n = g.rows;
        double largest = 0;
        for(std::size_t j = 0; j < n; ++j)
            largest = std::max(largest, g(j, j));
        double const tolerance = largest * 1e-13;
        dense_matrix r(n, n);
        std::vector<char> alive(n, 0);
        for(std::size_t j = 0; j < n; ++j)
        {
            double d = g(j, j);
            for(std::size_t k = 0; k < j; ++k)
                d -= r(k, j) * r(k, j);
            if(!(d > tolerance) || !std::isfinite(d))
                continue;
            alive[j] = 1;
            double const rjj = std::sqrt(d);
            r(j, j) = rjj;
            for(std::size_t m = j + 1; m < n; ++m)
            {
                double s = g(j, m);
                for(std::size_t k = 0; k < j; ++k)
                    s -= r(k, j) * r(k, m);
                r(j, m) = s / rjj;
            }
        }
        dense_matrix inv(n, n);
        for(std::size_t c = 0; c < n; ++c)
        {
            if(!alive[c])
                continue;
            inv(c, c) = 1 / r(c, c);
            for(std::size_t i = c; i-- > 0;)
            {
                if(!alive[i])
                    continue;
                double s = 0;
                for(std::size_t k = i + 1; k <= c; ++k)
                    s += r(i, k) * inv(k, c);
                inv(i, c) = -s / r(i, i);
            }
        }
        return inv;
    }

    dense_kernels k_;
};

/** The eigenvalues of the symmetric matrix `a` (destroyed), largest first,
    and its eigenvectors as the columns of `vectors`, by cyclic Jacobi
    rotations: simple, and accurate for the small matrices (a few hundred
    rows) of the randomized SVD.
*/
inline void symmetric_eigen(dense_matrix& a, std::vector<double>& values, dense_matrix& vectors)
{
    std::size_t const n = a.rows;
    dense_matrix vt(n, n); // rows: eigenvectors
    for(std::size_t i = 0; i < n; ++i)
        vt(i, i) = 1;
    for(int sweep = 0; sweep < 100; ++sweep)
    {
        double off = 0, diagonal = 0;
        for(std::size_t p = 0; p < n; ++p)
        {
            diagonal += a(p, p) * a(p, p);
            for(std::size_t q = p + 1; q < n; ++q)
                off += a(p, q) * a(p, q);
        }
        if(!(off > 1e-30 * (diagonal + 2 * off)))
            break;
        for(std::size_t p = 0; p + 1 < n; ++p)
        {
            for(std::size_t q = p + 1; q < n; ++q)
            {
                double const apq = a(p, q);
                double const app = a(p, p), aqq = a(q, q);
                if(apq == 0)
                    continue;
                // Negligible next to both diagonal entries: drop it (Rutishauser).
                if(sweep > 3 && std::abs(app) + 1e3 * std::abs(apq) == std::abs(app) &&
                    std::abs(aqq) + 1e3 * std::abs(apq) == std::abs(aqq))
                {
                    a(p, q) = a(q, p) = 0;
                    continue;
                }
                double const theta = (aqq - app) / (2 * apq);
                double t = std::abs(theta) > 1e150 ? 1 / (2 * std::abs(theta))
                                                   : 1 / (std::abs(theta) + std::sqrt(theta * theta + 1));
                if(theta < 0)
                    t = -t;
                double const c = 1 / std::sqrt(t * t + 1);
                double const s = t * c;
                double* rp = a.row(p);
                double* rq = a.row(q);
                for(std::size_t k = 0; k < n; ++k)
                {
                    double const x = rp[k], y = rq[k];
                    rp[k] = c * x - s * y;
                    rq[k] = s * x + c * y;
                }
                for(std::size_t k = 0; k < n; ++k)
                {
                    a(k, p) = rp[k];
                    a(k, q) = rq[k];
                }
                a(p, p) = app - t * apq;
                a(q, q) = aqq + t * apq;
                a(p, q) = a(q, p) = 0;
                double* vp = vt.row(p);
                double* vq = vt.row(q);
                for(std::size_t k = 0; k < n; ++k)
                {
                    double const x = vp[k], y = vq[k];
                    vp[k] = c * x - s * y;
                    vq[k] = s * x + c * y;
                }
            }
        }
    }
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) { return a(i, i) > a(j, j); });
    values.resize(n);
    vectors = dense_matrix(n, n);
    for(std::size_t j = 0; j < n; ++j)
    {
        values[j] = a(order[j], order[j]);
        for(std::size_t i = 0; i < n; ++i)
            vectors(i, j) = vt(order[j], i);
    }
}

} // namespace agentio::retrieval::detail

#endif
