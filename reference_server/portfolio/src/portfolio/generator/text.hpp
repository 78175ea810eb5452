// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#pragma once
// Spanish text helpers: string building, dates ("30 de junio de 2025"),
// euros ("1.250.000 €"), decimals ("12,5"), ASCII folding and slugs, and
// cutting text at UTF-8 and word boundaries.
#include "portfolio/generator/calendar.hpp"
#include "portfolio/generator/money.hpp"

#include <cmath>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace portfolio::generator {

inline void app(std::string& s, std::string_view v)
{
    s.append(v);
}
inline void app(std::string& s, char c)
{
    s.push_back(c);
}
inline void app(std::string& s, int v)
{
    s += std::to_string(v);
}
template<class... A>
std::string cat(A const&... a)
{
    std::string s;
    (app(s, a), ...);
    return s;
}

inline constexpr std::string_view kMeses[] = {"enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto",
    "septiembre", "octubre", "noviembre", "diciembre"};

/// "30 de junio de 2025"
std::string fecha_larga(Date d);
/// "junio de 2025"
std::string mes_anio(Date d);
/// "1.250.000" (dots between thousands)
std::string group_thousands(i64 v);
/// Spanish euro formatting: "1.250.000 €" (rounded to euros) or "1.250.000,50 €".
std::string eur(i64 cents, bool with_cents = false);
inline double round1(double x)
{
    return std::round(x * 10.0) / 10.0;
}
/// "12,5" style percentage number (one decimal, comma).
std::string num1(double x);
std::string lower_first(std::string_view s);
std::string upper_first(std::string_view s);
/// ASCII folding of the Spanish accented letters (used for file names and sort keys).
std::string fold_ascii(std::string_view s);
/// The first `max_words` ASCII-folded words joined by '_' ("Plan_de_Proyecto").
std::string slug(std::string_view s, int max_words);
/// Case- and accent-insensitive sort key.
std::string sort_key(std::string_view s);
/// At most `max_bytes` of `s`, cut at a UTF-8 boundary (agentio::utf8_byte_prefix), without trailing spaces
/// when cut; `s` itself when it fits.
std::string truncate_utf8(std::string_view s, std::size_t max_bytes);
/// Appends a final period unless the text already ends with one ("S.L.").
std::string with_dot(std::string s);
/// Cut at a word boundary with an ellipsis when longer than max_bytes.
std::string short_name(std::string_view s, std::size_t max_bytes);
std::string join(std::vector<std::string> const& v, std::string_view sep, std::string_view last_sep);
int count_words(std::string_view s);
/// Zero-padded decimal ("007").
std::string pad(int v, int width);

} // namespace portfolio::generator
