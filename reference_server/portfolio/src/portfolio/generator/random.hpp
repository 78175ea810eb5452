// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#pragma once
// The generator's random source. Every random decision comes from this
// xoshiro256** generator, seeded through splitmix64 with one independent stream
// per (seed, purpose, index); normal variates are the Irwin-Hall sum of 12
// uniforms (pure IEEE additions), so the same seed gives the same bits on every
// platform. The only libm call is std::exp for log-normal amounts, which are
// rounded to cents afterwards.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>

namespace portfolio::generator {

inline std::uint64_t splitmix64(std::uint64_t& x)
{
    std::uint64_t z = (x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

class Rng
{
public:
    explicit Rng(std::uint64_t seed)
    {
        std::uint64_t x = seed;
        for(auto& w : s_)
            w = splitmix64(x);
    }
    /// Independent stream for (seed, purpose, index).
    static Rng stream(std::uint64_t seed, std::uint64_t purpose, std::uint64_t index)
    {
        std::uint64_t x = seed;
        std::uint64_t a = splitmix64(x);
        x = a ^ (purpose * 0xD1B54A32D192ED03ULL);
        std::uint64_t b = splitmix64(x);
        x = b ^ (index * 0xABC98388FB8FAC03ULL + 0x8CB92BA72F3D8DD7ULL);
        return Rng(splitmix64(x));
    }
    std::uint64_t next()
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
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
    double uniform(double a, double b) { return a + (b - a) * uniform(); }
    /// Inclusive integer range.
    int range(int lo, int hi)
    {
        if(hi <= lo)
            return lo;
        auto const n = static_cast<std::uint64_t>(static_cast<long long>(hi) - lo + 1);
        return lo + static_cast<int>(next() % n);
    }
    std::size_t index(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(next() % n); }
    bool chance(double p) { return uniform() < p; }
    /// Approximately standard normal (Irwin-Hall, bounded to ±6).
    double normal()
    {
        double s = 0.0;
        for(int i = 0; i < 12; ++i)
            s += uniform();
        return s - 6.0;
    }
    double lognormal(double mu, double sigma) { return std::exp(mu + sigma * normal()); }
    std::size_t weighted(std::span<double const> w)
    {
        double total = 0.0;
        for(double x : w)
            total += x;
        double u = uniform() * total;
        for(std::size_t i = 0; i < w.size(); ++i)
        {
            if(w[i] <= 0.0)
                continue;
            if(u < w[i])
                return i;
            u -= w[i];
        }
        for(std::size_t i = w.size(); i-- > 0;)
            if(w[i] > 0.0)
                return i;
        return 0;
    }
    template<class C>
    auto const& pick(C const& c)
    {
        return c[index(std::size(c))];
    }

private:
    static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    std::uint64_t s_[4]{};
};

/// The purposes of the independent streams (Rng::stream's second argument).
enum Purpose : std::uint64_t
{
    P_IDS = 0,
    P_BASE = 1,
    P_CHILD = 2,
    P_GROUPS = 3,
    P_PEOPLE = 4,
    P_GROUPCHILD = 5
};

} // namespace portfolio::generator
