// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "charts/detail/deflate.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace portfolio::charts::detail {

namespace {

constexpr std::size_t max_match = 258;
constexpr std::size_t max_distance = 32768;
constexpr std::size_t symbols_per_block = std::size_t{1} << 17;

constexpr std::array<std::uint16_t, 29> length_base{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43,
    51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
constexpr std::array<std::uint8_t, 29> length_extra{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4,
    4, 4, 5, 5, 5, 5, 0};
constexpr std::array<std::uint16_t, 30> distance_base{1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257,
    385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
constexpr std::array<std::uint8_t, 30> distance_extra{0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9,
    9, 10, 10, 11, 11, 12, 12, 13, 13};
constexpr std::array<std::uint8_t, 19> code_length_order{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14,
    1, 15};

/// For each match length 3..258: its length code (257..285) in the low 9 bits and the extra bits' value above.
constexpr auto length_symbols = [] {
    std::array<std::uint16_t, max_match + 1> table{};
    for (std::size_t len = 3; len <= max_match; ++len) {
        std::size_t code = 0;
        while (code + 1 < length_base.size() && length_base[code + 1] <= len)
            ++code;
        table[len] = static_cast<std::uint16_t>((257 + code) | ((len - length_base[code]) << 9));
    }
    return table;
}();

/// How many bytes from `a` on equal those from `b` on, up to `limit`. The two ranges may overlap.
std::size_t match_length(std::uint8_t const* a, std::uint8_t const* b, std::size_t limit) noexcept
{
    std::size_t n = 0;
#if defined(__SSE2__)
    while (n + 16 <= limit) {
        __m128i const x = _mm_loadu_si128(reinterpret_cast<__m128i const*>(a + n));
        __m128i const y = _mm_loadu_si128(reinterpret_cast<__m128i const*>(b + n));
        auto const equal = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(x, y)));
        if (equal != 0xFFFF)
            return n + static_cast<std::size_t>(std::countr_one(equal));
        n += 16;
    }
#endif
    while (n + 8 <= limit) {
        std::uint64_t x, y;
        std::memcpy(&x, a + n, 8);
        std::memcpy(&y, b + n, 8);
        if (std::uint64_t const diff = x ^ y; diff != 0) {
            if constexpr (std::endian::native == std::endian::little)
                return n + static_cast<std::size_t>(std::countr_zero(diff) >> 3);
            else
                return n + static_cast<std::size_t>(std::countl_zero(diff) >> 3);
        }
        n += 8;
    }
    while (n < limit && a[n] == b[n])
        ++n;
    return n;
}

/// Code lengths of a Huffman code for `freq`, none longer than `limit`. Unused symbols get 0.
/// Over-long codes are cured by halving the frequencies, which costs little for chart data.
void huffman_lengths(std::uint32_t const* freq, std::size_t n, unsigned limit, std::uint8_t* lengths)
{
    std::vector<std::uint32_t> f(freq, freq + n);
    std::vector<std::pair<std::uint32_t, std::uint16_t>> leaves;
    std::vector<std::uint64_t> weight;
    std::vector<std::uint32_t> parent;
    std::vector<std::uint8_t> depth;
    for (;;) {
        std::fill(lengths, lengths + n, std::uint8_t{0});
        leaves.clear();
        for (std::size_t i = 0; i < n; ++i)
            if (f[i] != 0)
                leaves.emplace_back(f[i], static_cast<std::uint16_t>(i));
        if (leaves.empty())
            return;
        if (leaves.size() == 1) {
            lengths[leaves[0].second] = 1;
            return;
        }
        std::sort(leaves.begin(), leaves.end());
        std::size_t const m = leaves.size();
        weight.assign(2 * m - 1, 0);
        parent.assign(2 * m - 1, 0);
        for (std::size_t i = 0; i < m; ++i)
            weight[i] = leaves[i].first;
        // Two queues: leaves in order, and internal nodes, which are made in order of weight.
        std::size_t next_leaf = 0, next_internal = m;
        for (std::size_t node = m; node < 2 * m - 1; ++node) {
            auto take = [&] {
                if (next_leaf < m && (next_internal >= node || weight[next_leaf] <= weight[next_internal]))
                    return next_leaf++;
                return next_internal++;
            };
            std::size_t const a = take();
            std::size_t const b = take();
            weight[node] = weight[a] + weight[b];
            parent[a] = parent[b] = static_cast<std::uint32_t>(node);
        }
        depth.assign(2 * m - 1, 0);
        unsigned longest = 0;
        for (std::size_t node = 2 * m - 2; node-- > 0;) {
            depth[node] = static_cast<std::uint8_t>(std::min(255, depth[parent[node]] + 1));
            if (node < m)
                longest = std::max<unsigned>(longest, depth[node]);
        }
        if (longest <= limit) {
            for (std::size_t i = 0; i < m; ++i)
                lengths[leaves[i].second] = depth[i];
            return;
        }
        for (auto& x : f)
            if (x != 0)
                x = (x >> 1) | 1;
    }
}

/// Canonical codes (RFC 1951 §3.2.2), bit-reversed for LSB-first output.
void canonical_codes(std::uint8_t const* lengths, std::size_t n, std::uint16_t* codes)
{
    std::array<std::uint16_t, 16> count{};
    for (std::size_t i = 0; i < n; ++i)
        ++count[lengths[i]];
    count[0] = 0;
    std::array<std::uint16_t, 16> next{};
    unsigned code = 0;
    for (unsigned bits = 1; bits < 16; ++bits) {
        code = (code + count[bits - 1]) << 1;
        next[bits] = static_cast<std::uint16_t>(code);
    }
    for (std::size_t i = 0; i < n; ++i) {
        unsigned const len = lengths[i];
        if (len == 0) {
            codes[i] = 0;
            continue;
        }
        unsigned c = next[len]++;
        unsigned reversed = 0;
        for (unsigned k = 0; k < len; ++k, c >>= 1)
            reversed = (reversed << 1) | (c & 1);
        codes[i] = static_cast<std::uint16_t>(reversed);
    }
}

/// LSB-first bits into a byte vector; reserve() before a block guarantees room for it.
class bit_writer
{
public:
    explicit bit_writer(std::vector<std::uint8_t>& out) : out_(out), size_(out.size()) {}

    void reserve(std::size_t bytes)
    {
        if (out_.size() < size_ + bytes + 8)
            out_.resize(std::max(out_.size() * 2, size_ + bytes + 8));
    }

    void put(std::uint32_t bits, unsigned count) noexcept
    {
        acc_ |= static_cast<std::uint64_t>(bits) << used_;
        used_ += count;
        if (used_ >= 32) {
            std::uint8_t* p = out_.data() + size_;
            p[0] = static_cast<std::uint8_t>(acc_);
            p[1] = static_cast<std::uint8_t>(acc_ >> 8);
            p[2] = static_cast<std::uint8_t>(acc_ >> 16);
            p[3] = static_cast<std::uint8_t>(acc_ >> 24);
            size_ += 4;
            acc_ >>= 32;
            used_ -= 32;
        }
    }

    /// Pads to a whole byte and leaves the vector at its true size.
    void finish()
    {
        reserve(8);
        while (used_ > 0) {
            out_[size_++] = static_cast<std::uint8_t>(acc_);
            acc_ >>= 8;
            used_ = used_ > 8 ? used_ - 8 : 0;
        }
        acc_ = 0;
        out_.resize(size_);
    }

private:
    std::vector<std::uint8_t>& out_;
    std::size_t size_;
    std::uint64_t acc_ = 0;
    unsigned used_ = 0;
};

/// A symbol: literal/length code in bits 0-8, length extra bits' value in 9-13, distance slot (0 none,
/// 1 the pixel to the left, 2 the row above) in 14-15.
using symbol = std::uint16_t;

struct distance_code
{
    std::uint16_t code = 0;
    std::uint16_t extra_value = 0;
    std::uint8_t extra_bits = 0;
};

distance_code distance_code_of(std::size_t distance)
{
    distance_code d;
    while (d.code + 1u < distance_base.size() && distance_base[d.code + 1u] <= distance)
        ++d.code;
    d.extra_value = static_cast<std::uint16_t>(distance - distance_base[d.code]);
    d.extra_bits = distance_extra[d.code];
    return d;
}

void write_block(bit_writer& bits, std::vector<symbol> const& symbols, bool final,
    std::array<distance_code, 3> const& distances)
{
    std::array<std::uint32_t, 286> lit_freq{};
    std::array<std::uint32_t, 30> dist_freq{};
    for (symbol s : symbols) {
        ++lit_freq[s & 0x1FF];
        if (unsigned const slot = s >> 14; slot != 0)
            ++dist_freq[distances[slot].code];
    }
    lit_freq[256] = 1; // end of block
    // Two codes at least in each tree keeps every decoder happy.
    if (std::count_if(lit_freq.begin(), lit_freq.end(), [](std::uint32_t f) { return f != 0; }) < 2)
        lit_freq[0] = std::max<std::uint32_t>(lit_freq[0], 1);
    while (std::count_if(dist_freq.begin(), dist_freq.end(), [](std::uint32_t f) { return f != 0; }) < 2)
        ++dist_freq[dist_freq[0] == 0 ? 0 : 1];

    std::array<std::uint8_t, 286> lit_len{};
    std::array<std::uint8_t, 30> dist_len{};
    huffman_lengths(lit_freq.data(), lit_freq.size(), 15, lit_len.data());
    huffman_lengths(dist_freq.data(), dist_freq.size(), 15, dist_len.data());
    std::array<std::uint16_t, 286> lit_code{};
    std::array<std::uint16_t, 30> dist_code{};
    canonical_codes(lit_len.data(), lit_len.size(), lit_code.data());
    canonical_codes(dist_len.data(), dist_len.size(), dist_code.data());

    std::size_t hlit = 286;
    while (hlit > 257 && lit_len[hlit - 1] == 0)
        --hlit;
    std::size_t hdist = 30;
    while (hdist > 1 && dist_len[hdist - 1] == 0)
        --hdist;

    // The code lengths, run-length coded with 16 (repeat), 17 and 18 (zeros).
    std::vector<std::uint8_t> all(lit_len.begin(), lit_len.begin() + static_cast<std::ptrdiff_t>(hlit));
    all.insert(all.end(), dist_len.begin(), dist_len.begin() + static_cast<std::ptrdiff_t>(hdist));
    std::vector<std::pair<std::uint8_t, std::uint8_t>> rle; // symbol, extra value
    for (std::size_t i = 0; i < all.size();) {
        std::uint8_t const v = all[i];
        std::size_t run = 1;
        while (i + run < all.size() && all[i + run] == v)
            ++run;
        i += run;
        if (v == 0) {
            while (run >= 11) {
                std::size_t const k = std::min<std::size_t>(run, 138);
                rle.emplace_back(18, static_cast<std::uint8_t>(k - 11));
                run -= k;
            }
            if (run >= 3) {
                rle.emplace_back(17, static_cast<std::uint8_t>(run - 3));
                run = 0;
            }
        } else {
            rle.emplace_back(v, 0);
            --run;
            while (run >= 3) {
                std::size_t const k = std::min<std::size_t>(run, 6);
                rle.emplace_back(16, static_cast<std::uint8_t>(k - 3));
                run -= k;
            }
        }
        for (; run > 0; --run)
            rle.emplace_back(v, 0);
    }
    std::array<std::uint32_t, 19> cl_freq{};
    for (auto const& [s, extra] : rle)
        ++cl_freq[s];
    std::array<std::uint8_t, 19> cl_len{};
    huffman_lengths(cl_freq.data(), cl_freq.size(), 7, cl_len.data());
    std::array<std::uint16_t, 19> cl_code{};
    canonical_codes(cl_len.data(), cl_len.size(), cl_code.data());
    std::size_t hclen = 19;
    while (hclen > 4 && cl_len[code_length_order[hclen - 1]] == 0)
        --hclen;

    bits.reserve(symbols.size() * 6 + rle.size() * 3 + 64); // 48 bits at most a symbol
    bits.put(final ? 1 : 0, 1);
    bits.put(2, 2); // dynamic Huffman
    bits.put(static_cast<std::uint32_t>(hlit - 257), 5);
    bits.put(static_cast<std::uint32_t>(hdist - 1), 5);
    bits.put(static_cast<std::uint32_t>(hclen - 4), 4);
    for (std::size_t i = 0; i < hclen; ++i)
        bits.put(cl_len[code_length_order[i]], 3);
    for (auto const& [s, extra] : rle) {
        bits.put(cl_code[s], cl_len[s]);
        if (s == 16)
            bits.put(extra, 2);
        else if (s == 17)
            bits.put(extra, 3);
        else if (s == 18)
            bits.put(extra, 7);
    }

    // The data.
    std::array<std::uint32_t, 3> dist_bits{};
    std::array<unsigned, 3> dist_count{};
    for (std::size_t slot = 1; slot < 3; ++slot) {
        auto const& d = distances[slot];
        dist_bits[slot] = dist_code[d.code] | (static_cast<std::uint32_t>(d.extra_value) << dist_len[d.code]);
        dist_count[slot] = dist_len[d.code] + d.extra_bits;
    }
    for (symbol s : symbols) {
        unsigned const code = s & 0x1FF;
        if (code < 256) {
            bits.put(lit_code[code], lit_len[code]);
            continue;
        }
        unsigned const extra_bits = length_extra[code - 257];
        bits.put(lit_code[code] | (static_cast<std::uint32_t>((s >> 9) & 0x1F) << lit_len[code]),
            lit_len[code] + extra_bits);
        unsigned const slot = s >> 14;
        bits.put(dist_bits[slot], dist_count[slot]);
    }
    bits.put(lit_code[256], lit_len[256]);
}

} // namespace

std::uint32_t adler32(std::span<std::uint8_t const> data) noexcept
{
    constexpr std::uint32_t mod = 65521;
    constexpr std::size_t chunk_max = 5552 / 16 * 16; // keeps every 32-bit sum below 2^32 (zlib's NMAX)
    std::uint32_t a = 1, b = 0;
    std::uint8_t const* p = data.data();
    std::size_t n = data.size();
    while (n > 0) {
        std::size_t const chunk = std::min(n, chunk_max);
        std::size_t i = 0;
#if defined(__SSE2__)
        // 16 bytes a step: a gains their sum; b gains 16·(the sums of the earlier steps) plus the bytes
        // weighted 16..1. Sums with _mm_sad_epu8, weighted sums with _mm_madd_epi16 (SSE2 only).
        if (std::size_t const blocks = chunk / 16; blocks > 0) {
            __m128i const zero = _mm_setzero_si128();
            __m128i const w_lo = _mm_set_epi16(9, 10, 11, 12, 13, 14, 15, 16);
            __m128i const w_hi = _mm_set_epi16(1, 2, 3, 4, 5, 6, 7, 8);
            __m128i sums = zero, earlier = zero, weighted = zero;
            for (std::size_t k = 0; k < blocks; ++k) {
                __m128i const v = _mm_loadu_si128(reinterpret_cast<__m128i const*>(p + 16 * k));
                earlier = _mm_add_epi32(earlier, sums);
                sums = _mm_add_epi32(sums, _mm_sad_epu8(v, zero));
                weighted = _mm_add_epi32(weighted, _mm_madd_epi16(_mm_unpacklo_epi8(v, zero), w_lo));
                weighted = _mm_add_epi32(weighted, _mm_madd_epi16(_mm_unpackhi_epi8(v, zero), w_hi));
            }
            auto lanes = [](__m128i x) {
                alignas(16) std::uint32_t l[4];
                _mm_store_si128(reinterpret_cast<__m128i*>(l), x);
                return static_cast<std::uint64_t>(l[0]) + l[1] + l[2] + l[3];
            };
            std::uint64_t const len = 16 * blocks;
            std::uint64_t const b64 = b + a * len + 16 * lanes(earlier) + lanes(weighted);
            a = static_cast<std::uint32_t>((a + lanes(sums)) % mod);
            b = static_cast<std::uint32_t>(b64 % mod);
            i = len;
        }
#endif
        for (; i < chunk; ++i) {
            a += p[i];
            b += a;
        }
        a %= mod;
        b %= mod;
        p += chunk;
        n -= chunk;
    }
    return (b << 16) | a;
}

std::vector<std::uint8_t> chart_zlib(std::span<std::uint8_t const> scanlines, std::size_t pixel_bytes,
    std::size_t row_bytes)
{
    std::vector<std::uint8_t> out;
    out.reserve(scanlines.size() / 16 + 1024);
    out.push_back(0x78); // deflate, 32 KiB window
    out.push_back(0x01); // fastest, and (0x78 * 256 + 0x01) % 31 == 0
    bit_writer bits(out);

    std::array<distance_code, 3> const distances{
        distance_code{}, distance_code_of(pixel_bytes), distance_code_of(std::min(row_bytes, max_distance))};
    bool const use_rows = row_bytes <= max_distance && row_bytes != pixel_bytes;

    std::uint8_t const* p = scanlines.data();
    std::size_t const n = scanlines.size();
    std::vector<symbol> symbols;
    symbols.reserve(symbols_per_block);
    std::size_t i = 0;
    bool wrote_final = false;
    while (!wrote_final) {
        symbols.clear();
        while (i < n && symbols.size() < symbols_per_block) {
            std::size_t const limit = std::min(max_match, n - i);
            std::size_t best = 0;
            unsigned slot = 0;
            if (i >= pixel_bytes) {
                best = match_length(p + i, p + i - pixel_bytes, limit);
                slot = 1;
            }
            if (use_rows && best < limit && i >= row_bytes) {
                if (std::size_t const len = match_length(p + i, p + i - row_bytes, limit); len > best) {
                    best = len;
                    slot = 2;
                }
            }
            if (best == max_match && slot == 1) {
                // A run of one colour (blank space, the body of a bar): whole 258-byte matches for as long as
                // it lasts, without trying the row above each time. (Not the other way round: a match with
                // the row above costs 11 more bits, so each chunk of those first tries the pixel to the left.)
                std::size_t run = max_match
                    + match_length(p + i + max_match, p + i + max_match - pixel_bytes, n - i - max_match);
                auto const full = static_cast<symbol>(length_symbols[max_match] | (1u << 14));
                while (run >= max_match && symbols.size() < symbols_per_block) {
                    symbols.push_back(full);
                    i += max_match;
                    run -= max_match;
                }
            } else if (best >= 3) {
                symbols.push_back(static_cast<symbol>(length_symbols[best] | (slot << 14)));
                i += best;
            } else {
                symbols.push_back(p[i]);
                ++i;
            }
        }
        wrote_final = i >= n;
        write_block(bits, symbols, wrote_final, distances);
    }
    bits.finish();
    std::uint32_t const check = adler32(scanlines);
    out.push_back(static_cast<std::uint8_t>(check >> 24));
    out.push_back(static_cast<std::uint8_t>(check >> 16));
    out.push_back(static_cast<std::uint8_t>(check >> 8));
    out.push_back(static_cast<std::uint8_t>(check));
    return out;
}

} // namespace portfolio::charts::detail
