//
// agentio/retrieval/detail/deterministic_math.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Random numbers and the few transcendental functions the latent-semantic
// model needs, computed with + - * / and sqrt only, in a fixed order, so a
// fitted model is the same bytes on every machine: the results of std::log,
// std::sin and std::normal_distribution depend on the C library (glibc even
// picks FMA variants of log and sin at run time).
//

#ifndef AGENTIO_RETRIEVAL_DETAIL_DETERMINISTIC_MATH_HPP
#define AGENTIO_RETRIEVAL_DETAIL_DETERMINISTIC_MATH_HPP

#include <cmath>
#include <cstdint>

namespace agentio::retrieval::detail {

/// SplitMix64 (Steele, Lea, Flood): seeds xoshiro256**.
inline std::uint64_t splitmix64(std::uint64_t& state) noexcept
{
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/// xoshiro256** (Blackman, Vigna): fast, and fully specified by its seed.
class xoshiro256
{
public:
    explicit xoshiro256(std::uint64_t seed) noexcept
    {
        for(std::uint64_t& word : s_)
            word = splitmix64(seed);
    }

    std::uint64_t operator()() noexcept
    {
        std::uint64_t const result = rotl(s_[1] * 5, 7) * 9;
        std::uint64_t const t = s_[1] << 17;
        s_[2] ^= s_[0];
        s_[3] ^= s_[1];
        s_[1] ^= s_[2];
        s_[0] ^= s_[3];
        s_[2] ^= t;
        s_[3] = rotl(s_[3], 45);
        return result;
    }

private:
    static std::uint64_t rotl(std::uint64_t x, int k) noexcept { return (x << k) | (x >> (64 - k)); }

    std::uint64_t s_[4];
};

/// The natural logarithm of a finite `x > 0`, to about one ulp.
inline double deterministic_log(double x) noexcept
{
    int exponent = 0;
    double m = std::frexp(x, &exponent); // exact: x = m·2^exponent, m in [0.5, 1)
    if(m < 0.70710678118654752440)
    {
        m *= 2;
        --exponent;
    }
    // log(m) = 2 atanh(z) = 2 (z + z³/3 + z⁵/5 + ...), |z| <= 0.172.
    double const z = (m - 1) / (m + 1);
    double const z2 = z * z;
    double series = 1.0 / 25;
    for(int k = 23; k >= 3; k -= 2)
        series = 1.0 / k + z2 * series;
    series = 1 + z2 * series;
    constexpr double ln2_high = 0.693147180369123816490; // 32 significant bits: exact times any exponent
    constexpr double ln2_low = 1.90821492927058770002e-10;
    return exponent * ln2_high + (exponent * ln2_low + 2 * z * series);
}

/// sin and cos of 2πu for u in [0, 1) that is a multiple of 2^-53.
inline void deterministic_sincos_2pi(double u, double& sine, double& cosine) noexcept
{
    // Octant and the fraction within it are exact for such u.
    double const t = u * 8;
    double const whole = std::floor(t);
    int const octant = int(whole);
    double const f = t - whole;
    constexpr double quarter_pi = 0.78539816339744830962;
    // Within the quadrant: angle f·π/4 for an even octant, π/2 - (1-f)·π/4 for an odd one.
    double const theta = ((octant & 1) == 0 ? f : 1 - f) * quarter_pi;
    double const t2 = theta * theta;
    // sin θ = θ(1 - θ²/(2·3)(1 - θ²/(4·5)(...))), cos θ = 1 - θ²/(1·2)(1 - θ²/(3·4)(...)),
    // to θ^19 and θ^18: below 1e-16 for θ <= π/4.
    double series_s = 0, series_c = 0;
    for(int k = 9; k >= 1; --k)
    {
        series_s = 1 - t2 * series_s / double((2 * k) * (2 * k + 1));
        series_c = 1 - t2 * series_c / double((2 * k - 1) * (2 * k));
    }
    double const s = theta * series_s;
    double const c = series_c;
    double const sin_q = (octant & 1) == 0 ? s : c;
    double const cos_q = (octant & 1) == 0 ? c : s;
    switch(octant >> 1)
    {
    case 0:
        sine = sin_q;
        cosine = cos_q;
        break;
    case 1:
        sine = cos_q;
        cosine = -sin_q;
        break;
    case 2:
        sine = -sin_q;
        cosine = -cos_q;
        break;
    default:
        sine = -cos_q;
        cosine = sin_q;
        break;
    }
}

/// Standard normal deviates by the Box–Muller transform, two per draw.
class gaussian_source
{
public:
    explicit gaussian_source(std::uint64_t seed) noexcept : random_(seed) {}

    double operator()() noexcept
    {
        if(has_spare_)
        {
            has_spare_ = false;
            return spare_;
        }
        // u1 in (0, 1], u2 in [0, 1), both multiples of 2^-53.
        double const u1 = double((random_() >> 11) + 1) * 0x1.0p-53;
        double const u2 = double(random_() >> 11) * 0x1.0p-53;
        double const radius = std::sqrt(-2 * deterministic_log(u1));
        double sine = 0, cosine = 0;
        deterministic_sincos_2pi(u2, sine, cosine);
        spare_ = radius * sine;
        has_spare_ = true;
        return radius * cosine;
    }

private:
    xoshiro256 random_;
    double spare_ = 0;
    bool has_spare_ = false;
};

} // namespace agentio::retrieval::detail

#endif
