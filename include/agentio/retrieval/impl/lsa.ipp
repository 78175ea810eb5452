//
// agentio/retrieval/impl/lsa.ipp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The randomized SVD (Halko, Martinsson, Tropp 2011) works on whichever side
// of the TF-IDF matrix A (documents × terms) is smaller, so that the costly
// dense steps (orthonormalisation, O(n·l²)) run on the smaller n:
//
//   P = Ω, Gaussian (n × l, l = dimensions + oversampling)
//   repeat power_iterations + 1 times:  P = orth(Mᵀ M P)
//
// with M = A when the terms are the smaller side, M = Aᵀ otherwise (and then
// P = orth(Aᵀ P) moves the basis to the terms' side). Last, Rayleigh–Ritz:
// C = A P, CᵀC = W Λ Wᵀ (Jacobi), σ = √λ, V = P W, and U·Σ = C W = A V, so
// folding a document in (embed) gives exactly its row of U·Σ. The span of
// the final P contains the row space of the textbook scheme's B = QᵀA
// (Q = orth((AAᵀ)^q A Ω)), and A P Pᵀ is the best approximation of A with
// that row space: at least as accurate, without orthonormalising the large
// side.
//

#ifndef AGENTIO_RETRIEVAL_IMPL_LSA_IPP
#define AGENTIO_RETRIEVAL_IMPL_LSA_IPP

#include <agentio/config.hpp>
#include <agentio/retrieval/detail/dense_kernels.hpp>
#include <agentio/retrieval/detail/deterministic_math.hpp>
#include <agentio/retrieval/detail/dot.hpp>
#include <agentio/retrieval/lsa.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <unordered_map>

namespace agentio::retrieval {

struct lsa_model::data
{
    lsa_options options;
    std::size_t documents = 0;
    std::size_t dimensions = 0;
    std::vector<std::string> terms; // sorted, unique
    std::vector<float> idf;
    std::vector<float> singular_values;
    std::vector<float> vectors;                                // terms.size() × dimensions, row-major
    std::unordered_map<std::string_view, std::uint32_t> index; // views into `terms`

    void build_index()
    {
        index.reserve(terms.size());
        for(std::size_t i = 0; i < terms.size(); ++i)
            index.emplace(terms[i], std::uint32_t(i));
    }
};

namespace detail {

// The sublinear TF-IDF weight of a term that occurs `tf` times.
inline double lsa_weight(std::size_t tf, float idf) noexcept
{
    return (1 + deterministic_log(double(tf))) * double(idf);
}

inline constexpr char lsa_magic[8] = {'A', 'G', 'I', 'O', '-', 'L', 'S', 'A'};
inline constexpr std::uint32_t lsa_version = 1;

// FNV-1a, 64 bits: detects truncation and corruption (not tampering).
inline std::uint64_t lsa_checksum(std::string_view bytes) noexcept
{
    std::uint64_t h = 0xcbf29ce484222325ull;
    for(char c : bytes)
    {
        h ^= std::uint8_t(c);
        h *= 0x100000001b3ull;
    }
    return h;
}

class lsa_writer
{
public:
    void u32(std::uint32_t v)
    {
        for(int i = 0; i < 4; ++i)
            out_.push_back(char(std::uint8_t(v >> (8 * i))));
    }
    void u64(std::uint64_t v)
    {
        for(int i = 0; i < 8; ++i)
            out_.push_back(char(std::uint8_t(v >> (8 * i))));
    }
    void f32(float v) { u32(std::bit_cast<std::uint32_t>(v)); }
    void f64(double v) { u64(std::bit_cast<std::uint64_t>(v)); }
    void bytes(std::string_view v) { out_.append(v); }
    std::string& str() noexcept { return out_; }

private:
    std::string out_;
};

// Reads little-endian fields; any read past the end sets `failed`.
class lsa_reader
{
public:
    explicit lsa_reader(std::string_view in) noexcept : in_(in) {}
    bool failed = false;

    std::size_t remaining() const noexcept { return in_.size() - pos_; }
    std::uint64_t u64() noexcept { return fixed(8); }
    std::uint32_t u32() noexcept { return std::uint32_t(fixed(4)); }
    float f32() noexcept { return std::bit_cast<float>(u32()); }
    double f64() noexcept { return std::bit_cast<double>(u64()); }
    std::string_view bytes(std::size_t n) noexcept
    {
        if(failed || n > remaining())
        {
            failed = true;
            return {};
        }
        std::string_view const v = in_.substr(pos_, n);
        pos_ += n;
        return v;
    }

private:
    std::uint64_t fixed(std::size_t n) noexcept
    {
        std::string_view const b = bytes(n);
        std::uint64_t v = 0;
        for(std::size_t i = 0; i < b.size(); ++i)
            v |= std::uint64_t(std::uint8_t(b[i])) << (8 * i);
        return v;
    }

    std::string_view in_;
    std::size_t pos_ = 0;
};

} // namespace detail

AGENTIO_DECL lsa_model::lsa_model(std::shared_ptr<data const> d) noexcept : data_(std::move(d)) {}

AGENTIO_DECL lsa_model lsa_model::fit(std::span<std::vector<std::string> const> documents, lsa_options const& options,
    std::vector<float>* document_vectors)
{
    auto model = std::make_shared<data>();
    model->options = options;
    std::size_t const n_documents = documents.size();
    model->documents = n_documents;
    if(document_vectors)
        document_vectors->clear();

    // Document frequencies, with provisional ids in order of first occurrence;
    // each occurrence's id is kept so the terms are hashed only once.
    std::unordered_map<std::string_view, std::uint32_t> provisional;
    std::vector<std::string_view> names;
    std::vector<std::size_t> df;
    std::vector<std::size_t> last_document;
    std::vector<std::uint32_t> occurrences;
    std::vector<std::size_t> document_start(n_documents + 1, 0);
    for(std::size_t i = 0; i < n_documents; ++i)
    {
        document_start[i] = occurrences.size();
        for(std::string const& term : documents[i])
        {
            auto const [it, inserted] = provisional.try_emplace(term, std::uint32_t(names.size()));
            if(inserted)
            {
                if(names.size() == std::numeric_limits<std::uint32_t>::max())
                    throw std::length_error("agentio::retrieval::lsa_model::fit: too many distinct terms");
                names.push_back(it->first);
                df.push_back(0);
                last_document.push_back(std::size_t(-1));
            }
            std::uint32_t const id = it->second;
            if(last_document[id] != i)
            {
                last_document[id] = i;
                ++df[id];
            }
            occurrences.push_back(id);
        }
    }
    document_start[n_documents] = occurrences.size();

    // The vocabulary, sorted, and its inverse document frequencies.
    std::size_t const min_df = std::max<std::size_t>(1, options.min_document_frequency);
    std::size_t max_df = n_documents;
    if(n_documents >= options.max_fraction_min_documents && options.max_document_fraction < 1)
        max_df = options.max_document_fraction > 0
            ? std::size_t(std::floor(options.max_document_fraction * double(n_documents)))
            : 0;
    std::vector<std::uint32_t> kept;
    for(std::uint32_t id = 0; id < names.size(); ++id)
        if(df[id] >= min_df && df[id] <= max_df)
            kept.push_back(id);
    std::sort(kept.begin(), kept.end(), [&](std::uint32_t a, std::uint32_t b) { return names[a] < names[b]; });
    constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();
    std::vector<std::uint32_t> final_id(names.size(), none);
    model->terms.reserve(kept.size());
    model->idf.reserve(kept.size());
    for(std::uint32_t id : kept)
    {
        final_id[id] = std::uint32_t(model->terms.size());
        model->terms.emplace_back(names[id]);
        double const ratio = (1.0 + double(n_documents)) / (1.0 + double(df[id]));
        model->idf.push_back(float(detail::deterministic_log(ratio) + 1));
    }
    std::size_t const n_terms = model->terms.size();
    provisional = {};
    names = {};
    df = {};
    last_document = {};

    // The TF-IDF matrix, rows L2-normalised.
    detail::csr_matrix a;
    a.rows = n_documents;
    a.cols = n_terms;
    a.offsets.reserve(n_documents + 1);
    a.offsets.push_back(0);
    {
        std::vector<std::uint32_t> ids;
        for(std::size_t i = 0; i < n_documents; ++i)
        {
            ids.clear();
            for(std::size_t k = document_start[i]; k < document_start[i + 1]; ++k)
                if(std::uint32_t const f = final_id[occurrences[k]]; f != none)
                    ids.push_back(f);
            std::sort(ids.begin(), ids.end());
            std::size_t const row_start = a.values.size();
            double norm = 0;
            for(std::size_t k = 0; k < ids.size();)
            {
                std::size_t run = k + 1;
                while(run < ids.size() && ids[run] == ids[k])
                    ++run;
                double const w = detail::lsa_weight(run - k, model->idf[ids[k]]);
                a.columns.push_back(ids[k]);
                a.values.push_back(w);
                norm += w * w;
                k = run;
            }
            if(norm > 0)
            {
                double const scale = 1 / std::sqrt(norm);
                for(std::size_t k = row_start; k < a.values.size(); ++k)
                    a.values[k] *= scale;
            }
            a.offsets.push_back(a.values.size());
        }
    }
    occurrences = {};
    document_start = {};

    std::size_t const dims = std::min({options.dimensions, n_documents, n_terms});
    model->dimensions = dims;
    if(dims == 0)
    {
        model->build_index();
        return lsa_model(std::move(model));
    }

    // The randomized SVD (see the top of this file).
    bool const term_side = n_terms <= n_documents;
    std::size_t const small = term_side ? n_terms : n_documents;
    std::size_t const width = dims + std::min(options.oversampling, small - dims);
    detail::dense_algebra const la(detail::select_dense_kernels());
    auto const forward = [&](detail::dense_matrix const& in, detail::dense_matrix& out) { // M · in
        if(term_side)
            la.gather_product(a, in, out);
        else
            la.scatter_product(a, in, out);
    };
    auto const backward = [&](detail::dense_matrix const& in, detail::dense_matrix& out) { // Mᵀ · in
        if(term_side)
            la.scatter_product(a, in, out);
        else
            la.gather_product(a, in, out);
    };

    detail::dense_matrix basis(small, width);
    {
        detail::gaussian_source gaussian(options.seed);
        for(std::size_t i = 0; i < small; ++i)
            for(std::size_t j = 0; j < width; ++j)
                basis(i, j) = gaussian();
    }
    detail::dense_matrix c;
    std::uint64_t const rounds = std::uint64_t(options.power_iterations) + 1;
    for(std::uint64_t round = 0; round < rounds; ++round)
    {
        detail::dense_matrix z;
        forward(basis, c);
        backward(c, z);
        basis = std::move(z);
        la.orthonormalize(basis, round + 1 == rounds ? 2 : 1);
    }
    if(!term_side)
    {
        // From the documents' side to the terms': the row space of QᵀA.
        la.scatter_product(a, basis, c);
        basis = std::move(c);
        la.orthonormalize(basis, 2);
    }

    // Rayleigh–Ritz: A·basis = U Σ Wᵀ, so V = basis·W and U·Σ = A·V exactly.
    la.gather_product(a, basis, c);
    std::vector<double> lambda;
    detail::dense_matrix w;
    {
        detail::dense_matrix g = la.gram(c);
        detail::symmetric_eigen(g, lambda, w);
    }
    std::vector<double> sigma(dims);
    for(std::size_t j = 0; j < dims; ++j)
        sigma[j] = std::sqrt(std::max(lambda[j], 0.0));
    // Directions with no weight (a corpus of lower rank) become zero; σ = √λ
    // carries the rounding of λ (about 1e-16·λ₀) as 1e-8·σ₀.
    double const negligible = sigma[0] * 1e-7;
    detail::dense_matrix wk(width, dims);
    for(std::size_t j = 0; j < dims; ++j)
    {
        if(!(sigma[j] > negligible))
        {
            sigma[j] = 0;
            continue;
        }
        for(std::size_t i = 0; i < width; ++i)
            wk(i, j) = w(i, j);
    }
    detail::dense_matrix v = la.multiply(basis, wk); // terms × dims
    // A singular vector's sign is arbitrary: make its largest entry positive.
    for(std::size_t j = 0; j < dims; ++j)
    {
        std::size_t largest = 0;
        for(std::size_t i = 1; i < v.rows; ++i)
            if(std::abs(v(i, j)) > std::abs(v(largest, j)))
                largest = i;
        if(v(largest, j) < 0)
        {
            for(std::size_t i = 0; i < v.rows; ++i)
                v(i, j) = -v(i, j);
            for(std::size_t i = 0; i < wk.rows; ++i)
                wk(i, j) = -wk(i, j);
        }
    }

    model->singular_values.resize(dims);
    for(std::size_t j = 0; j < dims; ++j)
        model->singular_values[j] = float(sigma[j]);
    model->vectors.resize(n_terms * dims);
    for(std::size_t i = 0; i < n_terms; ++i)
        for(std::size_t j = 0; j < dims; ++j)
            model->vectors[i * dims + j] = float(v(i, j));

    if(document_vectors)
    {
        // U·Σ = A·basis·W (U alone when embeddings are scaled).
        detail::dense_matrix u = la.multiply(c, wk);
        std::vector<double> scale(dims, 1.0);
        if(options.scale_by_inverse_singular_values)
            for(std::size_t j = 0; j < dims; ++j)
                scale[j] = sigma[j] > 0 ? 1 / sigma[j] : 0.0;
        document_vectors->assign(n_documents * dims, 0.0f);
        for(std::size_t i = 0; i < n_documents; ++i)
        {
            double norm = 0;
            for(std::size_t j = 0; j < dims; ++j)
            {
                u(i, j) *= scale[j];
                norm += u(i, j) * u(i, j);
            }
            if(!(norm > 0))
                continue;
            double const inverse = 1 / std::sqrt(norm);
            for(std::size_t j = 0; j < dims; ++j)
                (*document_vectors)[i * dims + j] = float(u(i, j) * inverse);
        }
    }

    model->build_index();
    return lsa_model(std::move(model));
}

AGENTIO_DECL bool lsa_model::empty() const noexcept
{
    return !data_ || data_->dimensions == 0 || data_->terms.empty();
}

AGENTIO_DECL std::size_t lsa_model::dimensions() const noexcept
{
    return data_ ? data_->dimensions : 0;
}

AGENTIO_DECL std::size_t lsa_model::vocabulary_size() const noexcept
{
    return data_ ? data_->terms.size() : 0;
}

AGENTIO_DECL std::size_t lsa_model::documents() const noexcept
{
    return data_ ? data_->documents : 0;
}

AGENTIO_DECL std::span<float const> lsa_model::singular_values() const noexcept
{
    if(!data_)
        return {};
    return data_->singular_values;
}

AGENTIO_DECL lsa_options const& lsa_model::options() const noexcept
{
    static lsa_options const defaults;
    return data_ ? data_->options : defaults;
}

AGENTIO_DECL std::vector<float> lsa_model::embed(std::span<std::string const> terms) const
{
    std::size_t const dims = dimensions();
    std::vector<float> out(dims, 0.0f);
    if(empty())
        return out;
    std::vector<std::uint32_t> ids;
    ids.reserve(terms.size());
    for(std::string const& term : terms)
        if(auto const it = data_->index.find(std::string_view(term)); it != data_->index.end())
            ids.push_back(it->second);
    if(ids.empty())
        return out;
    std::sort(ids.begin(), ids.end());
    // The same weights as the rows of the fitted matrix; its normalisation
    // is left out, as the result is normalised anyway. Summed in float with
    // SIMD (indexing a corpus embeds every document).
    detail::axpy_function const axpy = detail::axpy_kernel();
    for(std::size_t k = 0; k < ids.size();)
    {
        std::size_t run = k + 1;
        while(run < ids.size() && ids[run] == ids[k])
            ++run;
        float const w = float(detail::lsa_weight(run - k, data_->idf[ids[k]]));
        axpy(w, data_->vectors.data() + std::size_t(ids[k]) * dims, out.data(), dims);
        k = run;
    }
    std::vector<double> sum(out.begin(), out.end());
    if(data_->options.scale_by_inverse_singular_values)
        for(std::size_t j = 0; j < dims; ++j)
        {
            float const s = data_->singular_values[j];
            sum[j] = s > 0 ? sum[j] / double(s) : 0.0;
        }
    double norm = 0;
    for(double x : sum)
        norm += x * x;
    double const inverse = norm > 0 ? 1 / std::sqrt(norm) : 0.0;
    for(std::size_t j = 0; j < dims; ++j)
        out[j] = float(sum[j] * inverse);
    return out;
}

AGENTIO_DECL std::string lsa_model::serialize() const
{
    lsa_options const& o = options();
    std::size_t const dims = dimensions();
    std::size_t const n_terms = vocabulary_size();
    detail::lsa_writer w;
    std::size_t text = 0;
    for(std::size_t i = 0; i < n_terms; ++i)
        text += data_->terms[i].size();
    w.str().reserve(128 + 4 * dims + 8 * n_terms + text + 4 * n_terms * dims);
    w.bytes({detail::lsa_magic, sizeof detail::lsa_magic});
    w.u32(detail::lsa_version);
    w.u32(o.scale_by_inverse_singular_values ? 1 : 0);
    w.u64(o.dimensions);
    w.u64(o.oversampling);
    w.u32(o.power_iterations);
    w.u32(o.min_document_frequency);
    w.u64(o.seed);
    w.f64(o.max_document_fraction);
    w.u64(o.max_fraction_min_documents);
    w.u64(documents());
    w.u64(dims);
    w.u64(n_terms);
    for(float s : singular_values())
        w.f32(s);
    for(std::size_t i = 0; i < n_terms; ++i)
    {
        w.u32(std::uint32_t(data_->terms[i].size()));
        w.bytes(data_->terms[i]);
    }
    for(std::size_t i = 0; i < n_terms; ++i)
        w.f32(data_->idf[i]);
    for(std::size_t i = 0; i < n_terms * dims; ++i)
        w.f32(data_->vectors[i]);
    w.u64(detail::lsa_checksum(w.str()));
    return std::move(w.str());
}

AGENTIO_DECL std::optional<lsa_model> lsa_model::parse(std::string_view bytes)
{
    if(bytes.size() < sizeof detail::lsa_magic + 8 ||
        bytes.substr(0, sizeof detail::lsa_magic) != std::string_view(detail::lsa_magic, sizeof detail::lsa_magic))
        return std::nullopt;
    std::string_view const body = bytes.substr(0, bytes.size() - 8);
    detail::lsa_reader trailer(bytes.substr(body.size()));
    if(trailer.u64() != detail::lsa_checksum(body))
        return std::nullopt;

    detail::lsa_reader r(body.substr(sizeof detail::lsa_magic));
    if(r.u32() != detail::lsa_version)
        return std::nullopt;
    std::uint32_t const flags = r.u32();
    if((flags & ~1u) != 0)
        return std::nullopt;
    auto model = std::make_shared<data>();
    lsa_options& o = model->options;
    o.scale_by_inverse_singular_values = (flags & 1) != 0;
    o.dimensions = r.u64();
    o.oversampling = r.u64();
    o.power_iterations = r.u32();
    o.min_document_frequency = r.u32();
    o.seed = r.u64();
    o.max_document_fraction = r.f64();
    o.max_fraction_min_documents = r.u64();
    std::uint64_t const documents = r.u64();
    std::uint64_t const dims = r.u64();
    std::uint64_t const n_terms = r.u64();
    if(r.failed || std::isnan(o.max_document_fraction) || dims > n_terms || dims > documents)
        return std::nullopt;
    // Every count must fit in what is left, before anything is allocated.
    std::size_t const left = r.remaining();
    if(dims > left / 4 || n_terms > left / 8 || (dims != 0 && n_terms > left / 4 / dims))
        return std::nullopt;
    model->documents = std::size_t(documents);
    model->dimensions = std::size_t(dims);

    model->singular_values.resize(dims);
    for(float& s : model->singular_values)
    {
        s = r.f32();
        if(!std::isfinite(s) || s < 0)
            return std::nullopt;
    }
    model->terms.reserve(n_terms);
    for(std::uint64_t i = 0; i < n_terms; ++i)
    {
        std::string_view const term = r.bytes(r.u32());
        if(r.failed || (i > 0 && !(model->terms.back() < term)))
            return std::nullopt;
        model->terms.emplace_back(term);
    }
    model->idf.resize(n_terms);
    for(float& x : model->idf)
    {
        x = r.f32();
        if(!std::isfinite(x) || !(x > 0))
            return std::nullopt;
    }
    model->vectors.resize(n_terms * dims);
    for(float& x : model->vectors)
    {
        x = r.f32();
        if(!std::isfinite(x))
            return std::nullopt;
    }
    if(r.failed || r.remaining() != 0)
        return std::nullopt;
    model->build_index();
    return lsa_model(std::move(model));
}

} // namespace agentio::retrieval

#endif
