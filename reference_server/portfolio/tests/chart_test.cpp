// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Native charts: Spanish number formatting, spec checks, the "Otros" rule,
// PNG output that decodes to the right size with visible content, the PNG
// encoder itself, and the on-disk store's naming and cleanup rules.
#include "charts/chart.hpp"
#include "charts/chart_store.hpp"
#include "charts/detail/png.hpp"
#include "charts/detail/render.hpp"
#include "charts/format.hpp"

#include <boost/test/unit_test.hpp>

#include <lodepng.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <set>
#include <stdexcept>
#include <thread>

namespace fs = std::filesystem;
using namespace portfolio::charts;

namespace {

std::vector<std::string> const units{"Redes", "Clientes", "Generación", "Distribución", "Comercial", "Finanzas",
    "Personas", "Sistemas", "Ciberseguridad", "Datos", "Compras", "Legal", "Sostenibilidad", "Innovación",
    "Operaciones"};
std::vector<double> const amounts{4'250'000.5, 3'100'250, 2'900'000, 2'450'999.9, 2'100'000, 1'800'500, 1'500'000,
    1'250'000, 990'000, 870'500, 650'000, 420'000, 310'000, 150'000, 90'000};

/// The data of the matplotlib yardstick (bench/chart_bench.cpp draws the same).
chart_spec sample(chart_type type)
{
    chart_spec s;
    s.type = type;
    s.title = "Importe 2025 por unidad";
    if(type == chart_type::bar || type == chart_type::pie)
    {
        s.categories = units;
        s.series = {{"2025", amounts}};
    }
    else
    {
        s.categories = {"2024", "2025", "2026"};
        for(std::size_t i = 0; i < 5; ++i)
            s.series.push_back({units[i], {amounts[i] * 0.8, amounts[i], amounts[i] * 1.1}});
    }
    return s;
}

struct image
{
    unsigned width = 0, height = 0;
    std::vector<unsigned char> rgb;

    std::array<unsigned char, 3> at(unsigned x, unsigned y) const
    {
        auto const* p = rgb.data() + (static_cast<std::size_t>(y) * width + x) * 3;
        return {p[0], p[1], p[2]};
    }
    bool has_colour(std::uint32_t hex) const
    {
        for(std::size_t i = 0; i < rgb.size(); i += 3)
            if(rgb[i] == (hex >> 16 & 0xFF) && rgb[i + 1] == (hex >> 8 & 0xFF) && rgb[i + 2] == (hex & 0xFF))
                return true;
        return false;
    }
    std::size_t count(unsigned y0, unsigned y1, auto pred) const
    {
        std::size_t n = 0;
        for(unsigned y = y0; y < std::min(y1, height); ++y)
            for(unsigned x = 0; x < width; ++x)
                n += pred(at(x, y)) ? 1 : 0;
        return n;
    }
};

image decode(std::vector<unsigned char> const& png)
{
    image img;
    unsigned const error = lodepng::decode(img.rgb, img.width, img.height, png, LCT_RGB, 8);
    BOOST_REQUIRE_MESSAGE(error == 0, lodepng_error_text(error));
    return img;
}

bool is_white(std::array<unsigned char, 3> c)
{
    return c[0] == 255 && c[1] == 255 && c[2] == 255;
}

bool is_dark(std::array<unsigned char, 3> c)
{
    return c[0] < 90 && c[1] < 90 && c[2] < 90;
}

/// The first row, from the top, with dark pixels.
unsigned first_dark_row(image const& img)
{
    for(unsigned y = 0; y < img.height; ++y)
        if(img.count(y, y + 1, is_dark) > 0)
            return y;
    return img.height;
}

bool starts_with(std::string const& s, std::string_view prefix)
{
    return s.compare(0, prefix.size(), prefix) == 0;
}

} // namespace

// =============================================================================================
BOOST_AUTO_TEST_SUITE(chart_format)

BOOST_AUTO_TEST_CASE(thousands_dots_and_decimal_comma)
{
    BOOST_TEST(format_number(1234567.891, 2) == "1.234.567,89");
    BOOST_TEST(format_euros(1234567.89) == "1.234.567,89 €");
    BOOST_TEST(format_number(1000, 0) == "1.000");
    BOOST_TEST(format_number(999, 0) == "999");
    BOOST_TEST(format_number(0, 2) == "0,00");
    BOOST_TEST(format_number(12.5, 0) == "13");
    BOOST_TEST(format_number(1e15, 0) == "1.000.000.000.000.000");
    BOOST_TEST(format_number(0.5, 3) == "0,500");
    BOOST_TEST(format_euros(90) == "90,00 €");
}

BOOST_AUTO_TEST_CASE(negatives_have_a_minus_and_never_minus_zero)
{
    BOOST_TEST(format_euros(-1234.5) == "-1.234,50 €");
    BOOST_TEST(format_number(-1234567.891, 2) == "-1.234.567,89");
    BOOST_TEST(format_number(-0.004, 2) == "0,00");
    BOOST_TEST(format_number(-0.0, 0) == "0");
    BOOST_TEST(format_euros(-0.001) == "0,00 €");
    BOOST_TEST(format_euros_short(-4'250'000) == "-4,3 M€");
    BOOST_TEST(format_euros_short(-0.001) == "0 €");
}

BOOST_AUTO_TEST_CASE(rounding_is_decimal_and_half_away_from_zero)
{
    BOOST_TEST(format_euros(999999.995) == "1.000.000,00 €");
    BOOST_TEST(format_euros(-999999.995) == "-1.000.000,00 €");
    BOOST_TEST(format_euros(999999.994) == "999.999,99 €");
    BOOST_TEST(format_number(2.675, 2) == "2,68"); // 2.67499999... in binary, 2.675 as written
    BOOST_TEST(format_number(0.125, 2) == "0,13");
    BOOST_TEST(format_number(9.5, 0) == "10");
    BOOST_TEST(format_number(99.95, 1) == "100,0");
}

BOOST_AUTO_TEST_CASE(short_forms_for_axes_and_labels)
{
    BOOST_TEST(format_euros_short(4'250'000.5) == "4,3 M€");
    BOOST_TEST(format_euros_short(2'000'000) == "2 M€");
    BOOST_TEST(format_euros_short(12'340'000) == "12,3 M€");
    BOOST_TEST(format_euros_short(870'000) == "870 k€");
    BOOST_TEST(format_euros_short(1'500) == "1,5 k€");
    BOOST_TEST(format_euros_short(2'000) == "2 k€");
    BOOST_TEST(format_euros_short(90) == "90 €");
    BOOST_TEST(format_euros_short(2.5) == "2,5 €");
    BOOST_TEST(format_euros_short(0) == "0 €");
    BOOST_TEST(format_euros_short(999'999) == "1 M€"); // not "1.000 k€"
    BOOST_TEST(format_euros_short(999.6) == "1 k€");
    BOOST_TEST(format_euros_short(9'960) == "10 k€");
    BOOST_TEST(format_euros_short(1'234'567'890) == "1.234,6 M€");
    BOOST_TEST(format_number_short(1'234'567) == "1,2 M");
    BOOST_TEST(format_number_short(870'000) == "870 k");
    BOOST_TEST(format_number_short(90) == "90");
    BOOST_TEST(format_number_short(-1'500) == "-1,5 k");
}

BOOST_AUTO_TEST_CASE(percentages_and_non_finite_values)
{
    BOOST_TEST(format_percent(0.125) == "12,5 %");
    BOOST_TEST(format_percent(1) == "100,0 %");
    BOOST_TEST(format_percent(-0.05) == "-5,0 %");
    BOOST_TEST(format_percent(0.00049) == "0,0 %");
    BOOST_TEST(format_number(std::nan(""), 2) == "NaN");
    BOOST_TEST(format_number(HUGE_VAL, 2) == "∞");
    BOOST_TEST(format_number(-HUGE_VAL, 2) == "-∞");
}

BOOST_AUTO_TEST_CASE(tick_labels_share_one_scale_and_precision)
{
    auto const scale = detail::nice_scale(0, 4'250'000.5, 8);
    BOOST_TEST(scale.step == 500'000);
    BOOST_TEST(scale.lo == 0);
    BOOST_TEST(scale.hi == 4'500'000);
    auto const fmt = detail::choose_tick_format(scale, value_unit::euros);
    BOOST_TEST(fmt(0) == "0,0 M€");
    BOOST_TEST(fmt(1'500'000) == "1,5 M€");
    BOOST_TEST(fmt(4'000'000) == "4,0 M€");
    auto const pct = detail::choose_tick_format(detail::nice_scale(0, 0.97, 10), value_unit::percent);
    BOOST_TEST(pct(0.3) == "30 %");
    auto const wide = detail::nice_scale(-3.2, 17.9, 6); // 1, 2, 2,5 or 5 × 10^k: here 5
    BOOST_TEST(wide.step == 5);
    BOOST_TEST(wide.ticks == (std::vector<double>{-5, 0, 5, 10, 15, 20}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()

// =============================================================================================
BOOST_AUTO_TEST_SUITE(charts)

BOOST_AUTO_TEST_CASE(valid_specs_pass_the_check)
{
    for(auto const t : {chart_type::bar, chart_type::pie, chart_type::line, chart_type::stacked_bar})
        BOOST_TEST(check_spec(sample(t)).empty());
}

BOOST_AUTO_TEST_CASE(each_check_names_its_field)
{
    auto expect = [](chart_spec const& s, std::string_view field) {
        std::string const message = check_spec(s);
        BOOST_TEST_INFO("message: " << message);
        BOOST_TEST(starts_with(message, field));
    };
    auto s = sample(chart_type::bar);
    s.title = std::string(201, 'x');
    expect(s, "title: tiene 201 caracteres");
    s.title = "";
    for(int i = 0; i < 200; ++i)
        s.title += "é"; // 200 characters, 400 bytes: fine
    BOOST_TEST(check_spec(s).empty());

    s = sample(chart_type::bar);
    s.categories.clear();
    s.series[0].values.clear();
    expect(s, "categories:");
    s.categories.assign(201, "c");
    s.series[0].values.assign(201, 1);
    expect(s, "categories: hay 201 categorías");

    s = sample(chart_type::bar);
    s.series.push_back(s.series[0]);
    expect(s, "series: un gráfico de barras lleva exactamente 1 serie y hay 2");
    s = sample(chart_type::pie);
    s.series.clear();
    expect(s, "series:");
    s = sample(chart_type::line);
    s.series.assign(11, s.series[0]);
    expect(s, "series: un gráfico de líneas lleva entre 1 y 10 series y hay 11");

    s = sample(chart_type::stacked_bar);
    s.categories.push_back("2027");
    for(auto& series : s.series)
        series.values.push_back(1);
    s.series[1].values.pop_back();
    BOOST_TEST(check_spec(s) == "series[1].values: tiene 3 valores y hay 4 categorías");

    s = sample(chart_type::line);
    s.series[0].values[2] = std::nan("");
    expect(s, "series[0].values[2]: no es un número finito");
    s.series[0].values[2] = HUGE_VAL;
    expect(s, "series[0].values[2]:");
    s.series[0].values[2] = 1e16;
    expect(s, "series[0].values[2]:");

    s = sample(chart_type::pie);
    s.series[0].values[3] = -5;
    expect(s, "series[0].values[3]: un gráfico circular no admite valores negativos (-5)");
    s.series[0].values.assign(s.categories.size(), 0.0);
    expect(s, "series[0].values: en un gráfico circular la suma debe ser positiva");

    s = sample(chart_type::bar); // negative bars are fine
    s.series[0].values[3] = -5;
    BOOST_TEST(check_spec(s).empty());
}

BOOST_AUTO_TEST_CASE(bars_keep_the_largest_and_sum_the_rest_into_otros)
{
    chart_spec s;
    s.type = chart_type::bar;
    s.series = {{"importe", {}}};
    for(int i = 0; i < 20; ++i)
        s.categories.push_back(std::to_string(i)); // names do not matter here
    // Values 0.25, 1.25, ..., 19.25 out of order: the 14 largest stay, the 6 smallest become "Otros".
    for(int i = 0; i < 20; ++i)
        s.series[0].values.push_back((i * 7 % 20) + 0.25);
    auto const g = group_small_categories(s, 15);
    BOOST_REQUIRE_EQUAL(g.categories.size(), 15u);
    BOOST_TEST(g.categories.back() == "Otros");
    auto const& v = g.series[0].values;
    BOOST_TEST(std::is_sorted(v.begin(), v.end() - 1, std::greater<>()));
    BOOST_TEST(v.front() == 19.25);
    BOOST_TEST(v[13] == 6.25);
    BOOST_TEST(v.back() == 0.25 + 1.25 + 2.25 + 3.25 + 4.25 + 5.25);
    BOOST_TEST(g.title == s.title);

    // Exact with cents: 0.1 added 30 times is not 3 in plain doubles.
    chart_spec cents;
    cents.type = chart_type::pie;
    cents.categories.assign(32, "x");
    cents.series = {{"", std::vector<double>(32, 0.1)}};
    cents.series[0].values[0] = 100;
    cents.series[0].values[1] = 50;
    BOOST_TEST(group_small_categories(cents, 3).series[0].values.back() == 3.0);
}

BOOST_AUTO_TEST_CASE(lines_and_stacks_keep_their_order)
{
    chart_spec s;
    s.type = chart_type::stacked_bar;
    s.categories = {"ene", "feb", "mar", "abr", "may", "jun"};
    s.series = {{"a", {5, 1, 9, 2, 8, 3}}, {"b", {5, -1, 0, 2, 1, 1}}};
    // Totals of absolute values: 10, 2, 9, 4, 9, 4 → keep ene, mar, may (largest three), in order.
    auto const g = group_small_categories(s, 4);
    BOOST_TEST(g.categories == (std::vector<std::string>{"ene", "mar", "may", "Otros"}),
        boost::test_tools::per_element());
    BOOST_TEST(g.series[0].values == (std::vector<double>{5, 9, 8, 1 + 2 + 3}), boost::test_tools::per_element());
    BOOST_TEST(g.series[1].values == (std::vector<double>{5, 0, 1, -1 + 2 + 1}), boost::test_tools::per_element());
    BOOST_TEST(g.series[1].name == "b");
}

BOOST_AUTO_TEST_CASE(grouping_leaves_small_specs_alone_and_merges_an_existing_otros)
{
    auto const s = sample(chart_type::bar);
    BOOST_TEST(group_small_categories(s, 15).categories == s.categories, boost::test_tools::per_element());
    BOOST_TEST(group_small_categories(s, 0).categories == s.categories, boost::test_tools::per_element());

    chart_spec o;
    o.type = chart_type::pie;
    o.categories = {"Otros", "a", "b", "c"};
    o.series = {{"", {100, 50, 40, 1}}};
    auto const g = group_small_categories(o, 3);
    BOOST_TEST(g.categories == (std::vector<std::string>{"a", "b", "Otros"}), boost::test_tools::per_element());
    BOOST_TEST(g.series[0].values == (std::vector<double>{50, 40, 101}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(every_type_renders_a_png_of_the_requested_size_with_content)
{
    struct expected
    {
        chart_type type;
        std::vector<std::uint32_t> colours; // palette colours that must appear
    };
    for(auto const& [type, colours] : {expected{chart_type::bar, {0x4E79A7}},
            expected{chart_type::pie, {0x4E79A7, 0xF28E2B, 0xE15759, 0x76B7B2, 0x59A14F}},
            expected{chart_type::line, {0x4E79A7, 0xF28E2B, 0xE15759, 0x76B7B2, 0x59A14F}},
            expected{chart_type::stacked_bar, {0x4E79A7, 0xF28E2B, 0xE15759, 0x76B7B2, 0x59A14F}}})
    {
        BOOST_TEST_CONTEXT("type " << static_cast<int>(type))
        {
            auto const img = decode(render_png(sample(type)));
            BOOST_TEST(img.width == 1500u);
            BOOST_TEST(img.height == 900u);
            std::size_t const inked = img.count(0, img.height, [](auto c) { return !is_white(c); });
            BOOST_TEST(inked > img.width * img.height / 20); // not blank
            BOOST_TEST(is_white(img.at(0, 0)));
            for(auto const c : colours)
                BOOST_TEST(img.has_colour(c), "colour " << std::hex << c);
            // The title: dark text in the top band.
            BOOST_TEST(img.count(0, 70, is_dark) > 500u);
        }
    }
}

BOOST_AUTO_TEST_CASE(dpi_scales_the_pixels_not_the_layout)
{
    render_options o;
    o.dpi = 300;
    auto const hi = decode(render_png(sample(chart_type::bar), o));
    BOOST_TEST(hi.width == 3000u);
    BOOST_TEST(hi.height == 1800u);
    auto const lo = decode(render_png(sample(chart_type::bar)));
    // Text twice as tall: the title starts at twice the height.
    BOOST_TEST(std::abs(static_cast<int>(first_dark_row(hi)) - 2 * static_cast<int>(first_dark_row(lo))) <= 3);

    o.dpi = 100;
    o.width_in = 4;
    o.height_in = 3;
    auto const small = decode(render_png(sample(chart_type::pie), o));
    BOOST_TEST(small.width == 400u);
    BOOST_TEST(small.height == 300u);
}

BOOST_AUTO_TEST_CASE(accented_titles_render_their_accents)
{
    auto plain = sample(chart_type::bar);
    plain.title = "EIOU";
    auto accented = plain;
    accented.title = "ÉÍÓÚ";
    auto const a = decode(render_png(plain));
    auto const b = decode(render_png(accented));
    // The accents stand above the capitals.
    BOOST_TEST(first_dark_row(b) + 3 < first_dark_row(a));

    accented.title = "Inversión en Ñandú: 1.234 € (año 2025)";
    BOOST_TEST(decode(render_png(accented)).count(0, 70, is_dark) > 500u);
}

BOOST_AUTO_TEST_CASE(bad_specs_options_and_fonts_throw_in_spanish)
{
    auto s = sample(chart_type::bar);
    s.series[0].values.pop_back();
    BOOST_CHECK_EXCEPTION(render_png(s), std::runtime_error, [](std::runtime_error const& e) {
        return std::string(e.what()).find("series[0].values: tiene 14 valores y hay 15 categorías") !=
            std::string::npos;
    });
    render_options bad_font;
    bad_font.font_dir = "/nonexistent/fonts";
    BOOST_CHECK_EXCEPTION(render_png(sample(chart_type::bar), bad_font), std::runtime_error,
        [](std::runtime_error const& e) {
            return std::string(e.what()).find("/nonexistent/fonts/DejaVuSans.ttf") != std::string::npos;
        });
    // The thread's fonts recover for the next call with a good directory.
    BOOST_TEST(decode(render_png(sample(chart_type::bar))).width == 1500u);
    render_options huge;
    huge.width_in = 1000;
    BOOST_CHECK_THROW(render_png(sample(chart_type::bar), huge), std::runtime_error);
}

BOOST_AUTO_TEST_CASE(grouping_happens_while_rendering)
{
    auto s = sample(chart_type::bar);
    render_options o;
    o.max_categories = 5;
    auto const grouped = decode(render_png(s, o));
    BOOST_TEST(grouped.has_colour(0xBAB0AC)); // the grey "Otros" bar
    BOOST_TEST(!decode(render_png(s)).has_colour(0xBAB0AC));
}

BOOST_AUTO_TEST_CASE(rendering_is_deterministic_across_threads)
{
    auto const expected = render_png(sample(chart_type::pie));
    std::vector<std::vector<unsigned char>> results(4);
    std::vector<std::thread> threads;
    for(std::size_t t = 0; t < results.size(); ++t)
        threads.emplace_back([&, t] {
            for(int i = 0; i < 3; ++i)
                results[t] = render_png(sample(static_cast<chart_type>((t + static_cast<std::size_t>(i)) % 4)));
            results[t] = render_png(sample(chart_type::pie));
        });
    for(auto& th : threads)
        th.join();
    for(auto const& r : results)
        BOOST_TEST((r == expected));
}

BOOST_AUTO_TEST_CASE(png_round_trips_through_lodepng)
{
    // White runs, repeats of the row above and noise, as in a chart; from one pixel up; every kind of level.
    std::mt19937 rng(7);
    for(auto const& [w, h] : {std::pair{1, 1}, std::pair{100, 3}, std::pair{301, 257}})
    {
        detail::canvas c(w, h, detail::rgb{255, 255, 255});
        for(int y = 0; y < h; ++y)
            for(int x = 0; x < w; ++x)
                if(rng() % 4 == 0)
                    c.blend(x, y, detail::hex(static_cast<std::uint32_t>(rng())), 255);
                else if(y > 0 && rng() % 3 != 0)
                    c.blend(x, y, c.pixel(x, y - 1), 255);
        for(int const level : {0, 1, 2, 6, 12})
        {
            detail::png_tuning t;
            t.level = level;
            auto const img = decode(detail::encode_png(c, level == 2 ? 150 : 0, t));
            BOOST_REQUIRE_EQUAL(img.width, static_cast<unsigned>(w));
            BOOST_REQUIRE_EQUAL(img.height, static_cast<unsigned>(h));
            for(int y = 0; y < h; ++y)
                BOOST_TEST(std::equal(c.row(y), c.row(y) + w * 3,
                    img.rgb.begin() + static_cast<std::ptrdiff_t>(y) * w * 3));
        }
    }
    // The dpi goes into pHYs, in pixels per metre, so that a word processor places the chart at its size.
    for(int const dpi : {0, 150})
    {
        auto const png = detail::encode_png(detail::canvas(4, 3, {}), dpi);
        lodepng::State state;
        std::vector<unsigned char> rgb;
        unsigned w = 0, h = 0;
        BOOST_REQUIRE_EQUAL(lodepng::decode(rgb, w, h, state, png), 0u);
        BOOST_TEST(state.info_png.phys_defined == (dpi > 0 ? 1u : 0u));
        if(dpi > 0)
        {
            BOOST_TEST(state.info_png.phys_x == 5906u); // 150 / 0,0254 m
            BOOST_TEST(state.info_png.phys_y == 5906u);
            BOOST_TEST(state.info_png.phys_unit == 1u);
        }
    }
    detail::png_tuning bad;
    bad.level = 13;
    BOOST_CHECK_THROW(detail::encode_png(detail::canvas(2, 2, {}), 0, bad), std::runtime_error);
}

BOOST_AUTO_TEST_CASE(every_encoder_writes_the_same_image)
{
    auto const canvas = detail::render_canvas(sample(chart_type::line), {});
    auto const reference = decode(detail::encode_png(canvas, 150));
    for(int const filter : {-1, 0, 2})
    {
        detail::png_tuning t;
        t.encoder = detail::png_encoder::lodepng_deflate;
        t.windowsize = 1024;
        t.nicematch = 64;
        t.lazymatching = false;
        t.filter = filter;
        BOOST_TEST((decode(detail::encode_png(canvas, 150, t)).rgb == reference.rgb));
    }
    for(int y = 0; y < canvas.height(); y += 97)
        BOOST_TEST(std::equal(canvas.row(y), canvas.row(y) + canvas.width() * 3,
            reference.rgb.begin() + static_cast<std::ptrdiff_t>(y) * canvas.width() * 3));
}

BOOST_AUTO_TEST_SUITE_END()

// =============================================================================================
namespace {

struct store_dir
{
    fs::path dir = fs::temp_directory_path() /
        ("agentio_chart_store_test_" + std::to_string(::getpid()) + "_" + std::to_string(std::random_device{}()));
    ~store_dir()
    {
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
};

void touch(fs::path const& p, std::string const& content = "x")
{
    std::ofstream(p, std::ios::binary) << content;
}

} // namespace

BOOST_AUTO_TEST_SUITE(charts)

BOOST_AUTO_TEST_CASE(store_names_are_random_hex_and_files_hold_the_bytes)
{
    store_dir tmp;
    chart_store store(tmp.dir / "nested" / "charts", std::chrono::hours(1));
    BOOST_TEST(fs::is_directory(store.directory()));
    std::vector<unsigned char> const png{137, 80, 78, 71, 1, 2, 3};
    std::set<std::string> names;
    std::regex const pattern("^[0-9a-f]{32}\\.png$");
    for(int i = 0; i < 50; ++i)
    {
        std::string const name = store.save(png);
        BOOST_TEST(std::regex_match(name, pattern), name);
        names.insert(name);
        auto const found = store.find(name);
        BOOST_REQUIRE(found.has_value());
        BOOST_TEST(fs::file_size(*found) == png.size());
    }
    BOOST_TEST(names.size() == 50u);
    // No temporary file is left behind.
    std::size_t files = 0;
    for(auto const& e : fs::directory_iterator(store.directory()))
    {
        BOOST_TEST(std::regex_match(e.path().filename().string(), pattern));
        ++files;
    }
    BOOST_TEST(files == 50u);
}

BOOST_AUTO_TEST_CASE(store_find_accepts_only_its_own_regular_files)
{
    store_dir tmp;
    chart_store store(tmp.dir / "charts", std::chrono::hours(1));
    std::string const name = store.save(std::vector<unsigned char>{1, 2, 3});
    BOOST_TEST(store.find(name).has_value());

    std::string upper = name;
    std::transform(upper.begin(), upper.end() - 4, upper.begin(),
        [](char c) { return static_cast<char>(std::toupper(c)); });
    touch(tmp.dir / "x.png");
    touch(store.directory() / "notes.txt");
    touch(store.directory() / (std::string(32, 'A') + ".png"));
    for(std::string const& bad :
        {std::string("../x.png"), std::string("ABCDEF0123456789ABCDEF0123456789.png"), std::string(32, 'A') + ".png",
            upper, std::string("notes.txt"), name.substr(1), name + "x", name.substr(0, 32) + ".PNG", "/" + name,
            "./" + name, std::string(), std::string(32, 'g') + ".png", name.substr(0, 31) + "/.png"})
        BOOST_TEST(!store.find(bad).has_value(), "accepted '" << bad << "'");

    // A symlink named like a chart, pointing at a real file outside the directory.
    std::string const link_name = std::string(32, 'a') + ".png";
    fs::create_symlink(tmp.dir / "x.png", store.directory() / link_name);
    BOOST_TEST(!store.find(link_name).has_value());
    // A directory named like a chart.
    std::string const dir_name = std::string(32, 'b') + ".png";
    fs::create_directory(store.directory() / dir_name);
    BOOST_TEST(!store.find(dir_name).has_value());
    // A well-formed name that the store never wrote.
    BOOST_TEST(!store.find(std::string(32, 'c') + ".png").has_value());
}

BOOST_AUTO_TEST_CASE(store_removes_only_its_own_expired_files)
{
    store_dir tmp;
    chart_store store(tmp.dir, std::chrono::minutes(30));
    auto const old = fs::file_time_type::clock::now() - std::chrono::hours(2);
    std::string const expired = store.save(std::vector<unsigned char>{1});
    std::string const fresh = store.save(std::vector<unsigned char>{2});
    fs::last_write_time(tmp.dir / expired, old);
    // An abandoned temporary file of the store, and files that are not the store's, all old.
    fs::path const stale_temp = tmp.dir / (std::string(32, 'd') + ".png.tmp");
    std::vector<fs::path> const others{tmp.dir / "keep.png", tmp.dir / "readme.txt",
        tmp.dir / (std::string(32, 'E') + ".png"), tmp.dir / (std::string(31, 'e') + ".png")};
    touch(stale_temp);
    fs::last_write_time(stale_temp, old);
    for(auto const& p : others)
    {
        touch(p);
        fs::last_write_time(p, old);
    }
    fs::create_directory(tmp.dir / (std::string(32, 'f') + ".png"));
    fs::last_write_time(tmp.dir / (std::string(32, 'f') + ".png"), old);

    BOOST_TEST(store.remove_expired() == 2u);
    BOOST_TEST(!fs::exists(tmp.dir / expired));
    BOOST_TEST(!fs::exists(stale_temp));
    BOOST_TEST(fs::exists(tmp.dir / fresh));
    for(auto const& p : others)
        BOOST_TEST(fs::exists(p), p);
    BOOST_TEST(fs::is_directory(tmp.dir / (std::string(32, 'f') + ".png")));
    BOOST_TEST(store.remove_expired() == 0u);
}

BOOST_AUTO_TEST_SUITE_END()

// =============================================================================================
// The built chat page, served from memory (app/web_assets): only files that were there.

#include "app/web_assets.hpp"
#include "portfolio_fixture.hpp"
#include "test_http.hpp"

BOOST_AUTO_TEST_SUITE(web_page)

namespace {

agentio::http::request get(std::string target, boost::beast::http::verb verb = boost::beast::http::verb::get)
{
    agentio::http::request req{verb, target, 11};
    req.keep_alive(true);
    return req;
}

} // namespace

BOOST_AUTO_TEST_CASE(pages_assets_and_nothing_else)
{
    namespace bhttp = boost::beast::http;
    store_dir tmp;
    fs::create_directories(tmp.dir / "assets");
    touch(tmp.dir / "index.html", "<!doctype html><div id=root></div>");
    touch(tmp.dir / "assets" / "index-1a2b3c.js", "console.log(1)");
    touch(tmp.dir / "assets" / "index-1a2b3c.css", "body{}");
    touch(tmp.dir / "favicon.svg", "<svg/>");
    auto const web = portfolio::load_web_page(tmp.dir);
    BOOST_TEST(web.loaded());

    // Every page route gets index.html, never cached stale, with a strict CSP.
    for(auto const* page : {"/", "/chat", "/detail/DIG_21_001"})
    {
        auto const res = web.serve(get(page), page);
        BOOST_TEST(res.result_int() == 200u, page);
        BOOST_TEST(res[bhttp::field::content_type] == "text/html; charset=utf-8");
        BOOST_TEST(res[bhttp::field::cache_control] == "no-cache");
        BOOST_TEST(res["Content-Security-Policy"].starts_with("default-src 'self'"));
        BOOST_TEST(res.body() == "<!doctype html><div id=root></div>");
    }
    auto const js = web.serve(get("/assets/index-1a2b3c.js"), "/assets/index-1a2b3c.js");
    BOOST_TEST(js.result_int() == 200u);
    BOOST_TEST(js[bhttp::field::content_type] == "text/javascript; charset=utf-8");
    BOOST_TEST(js[bhttp::field::cache_control] == "public, max-age=31536000, immutable");
    BOOST_TEST(js["X-Content-Type-Options"] == "nosniff");
    BOOST_TEST(web.serve(get("/assets/index-1a2b3c.css"), "/assets/index-1a2b3c.css")[bhttp::field::content_type] ==
        "text/css; charset=utf-8");
    auto const icon = web.serve(get("/favicon.svg"), "/favicon.svg");
    BOOST_TEST(icon[bhttp::field::cache_control] == "public, max-age=3600");

    // HEAD: the length, no body.
    auto const head = web.serve(get("/assets/index-1a2b3c.js", bhttp::verb::head), "/assets/index-1a2b3c.js");
    BOOST_TEST(head.body().empty());
    BOOST_TEST(head[bhttp::field::content_length] == "14");

    // Only what was found at start: no traversal, unknown assets 404, other methods 405.
    for(auto const* missing : {"/assets/nope.js", "/../secret.txt", "/assets/../../secret.txt", "/secret.txt"})
        BOOST_TEST(web.serve(get(missing), missing).result_int() == 404u, missing);
    auto const post = web.serve(get("/chat", bhttp::verb::post), "/chat");
    BOOST_TEST(post.result_int() == 405u);
    BOOST_TEST(post[bhttp::field::allow] == "GET, HEAD");

    // Not built: a page that says how to build it.
    auto const none = portfolio::load_web_page(tmp.dir / "missing");
    BOOST_TEST(!none.loaded());
    auto const hint = none.serve(get("/chat"), "/chat");
    BOOST_TEST(hint.result_int() == 404u);
    BOOST_TEST(hint.body().find("npm ci &amp;&amp; npm run build") != std::string::npos);
}

namespace {

agentio::http::request get_with(std::string target, boost::beast::http::field name, std::string value,
    boost::beast::http::verb verb = boost::beast::http::verb::get)
{
    auto req = get(std::move(target), verb);
    req.set(name, value);
    return req;
}

// gzip(1) itself, not our reading of RFC 1952, says what the bytes hold.
std::string gunzip(fs::path const& dir, std::string const& compressed)
{
    touch(dir / "body.gz", compressed);
    std::string const command = "gzip -dc '" + (dir / "body.gz").string() + "' 2>&1";
    std::FILE* pipe = ::popen(command.c_str(), "r");
    BOOST_REQUIRE(pipe);
    std::string out;
    char buf[4096];
    for(std::size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;)
        out.append(buf, n);
    BOOST_TEST(::pclose(pipe) == 0, out.substr(0, 200));
    return out;
}

} // namespace

BOOST_AUTO_TEST_CASE(text_goes_gzipped_to_clients_that_accept_it)
{
    namespace bhttp = boost::beast::http;
    store_dir tmp;
    fs::create_directories(tmp.dir / "assets");
    std::string script;
    for(int i = 0; script.size() < 200'000; ++i)
        script += "export const f" + std::to_string(i) + " = (a, b) => a + b * " + std::to_string(i % 97) + ";\n";
    touch(tmp.dir / "index.html", "<!doctype html><div id=root></div>");
    touch(tmp.dir / "assets" / "index-1a2b3c.js", script);
    touch(tmp.dir / "assets" / "small-1a2b3c.css", "body{margin:0}");
    touch(tmp.dir / "assets" / "logo-1a2b3c.png", std::string(4096, '\0'));
    auto const web = portfolio::load_web_page(tmp.dir);
    std::string const path = "/assets/index-1a2b3c.js";

    auto const zipped = web.serve(get_with(path, bhttp::field::accept_encoding, "gzip, deflate, br"), path);
    BOOST_TEST(zipped.result_int() == 200u);
    BOOST_TEST(zipped[bhttp::field::content_encoding] == "gzip");
    BOOST_TEST(zipped[bhttp::field::vary] == "Accept-Encoding");
    BOOST_TEST(zipped[bhttp::field::content_length] == std::to_string(zipped.body().size()));
    BOOST_TEST(zipped.body().size() < script.size() / 4);
    BOOST_TEST(gunzip(tmp.dir, zipped.body()) == script);

    auto const plain = web.serve(get(path), path); // no Accept-Encoding: identity
    BOOST_TEST(plain[bhttp::field::content_encoding].empty());
    BOOST_TEST(plain[bhttp::field::vary] == "Accept-Encoding");
    BOOST_TEST(plain.body() == script);

    // RFC 9110's Accept-Encoding: names case-insensitive, q=0 refuses, `*` stands for the rest.
    for(auto const& [accept, gzip] : std::vector<std::pair<std::string, bool>>{{"gzip", true}, {"GZIP;Q=1", true},
            {"x-gzip", true}, {"br;q=1, gzip;q=0.001", true}, {"*;q=0.5", true}, {"*", true}, {"gzip;q=0", false},
            {"gzip;q=0.000, *", false}, {"deflate, br", false}, {"identity", false}, {"*;q=0", false}, {"", false}})
        BOOST_TEST(web.serve(get_with(path, bhttp::field::accept_encoding, accept),
                       path)[bhttp::field::content_encoding] == (gzip ? "gzip" : ""),
            "Accept-Encoding: " << accept);

    // HEAD: the gzipped length, no body.
    auto const head = web.serve(get_with(path, bhttp::field::accept_encoding, "gzip", bhttp::verb::head), path);
    BOOST_TEST(head.body().empty());
    BOOST_TEST(head[bhttp::field::content_length] == std::to_string(zipped.body().size()));

    // Accept-Encoding on two lines is one list.
    auto two_lines = get_with(path, bhttp::field::accept_encoding, "br");
    two_lines.insert(bhttp::field::accept_encoding, "gzip");
    BOOST_TEST(web.serve(two_lines, path)[bhttp::field::content_encoding] == "gzip");

    // Small files and images go as they are, with no Vary.
    for(std::string small : {"/assets/small-1a2b3c.css", "/assets/logo-1a2b3c.png", "/chat"})
    {
        auto const res = web.serve(get_with(small, bhttp::field::accept_encoding, "gzip"), small);
        BOOST_TEST(res.result_int() == 200u, small);
        BOOST_TEST(res[bhttp::field::content_encoding].empty(), small);
        BOOST_TEST(res[bhttp::field::vary].empty(), small);
    }
}

BOOST_AUTO_TEST_CASE(etags_answer_revalidation_with_304)
{
    namespace bhttp = boost::beast::http;
    store_dir tmp;
    fs::create_directories(tmp.dir / "assets");
    touch(tmp.dir / "index.html", "<!doctype html><div id=root></div>");
    touch(tmp.dir / "assets" / "index-1a2b3c.js", std::string(50'000, 'a'));
    auto const web = portfolio::load_web_page(tmp.dir);

    // index.html is no-cache: the browser asks every time, and a 304 is all it costs.
    auto const page = web.serve(get("/chat"), "/chat");
    std::string const etag(page[bhttp::field::etag]);
    BOOST_TEST(std::regex_match(etag, std::regex(R"("[0-9a-f]{16}")")), etag);
    BOOST_TEST(web.serve(get("/detail/X_1"), "/detail/X_1")[bhttp::field::etag] == etag); // one file, one tag
    for(std::string const& inm : std::vector<std::string>{etag, "W/" + etag, "\"0000000000000000\", " + etag, "*"})
    {
        auto const again = web.serve(get_with("/chat", bhttp::field::if_none_match, inm), "/chat");
        BOOST_TEST(again.result_int() == 304u, inm);
        BOOST_TEST(again.body().empty());
        BOOST_TEST(again[bhttp::field::etag] == etag);
        BOOST_TEST(again[bhttp::field::cache_control] == "no-cache");
    }
    BOOST_TEST(
        web.serve(get_with("/chat", bhttp::field::if_none_match, "\"0000000000000000\""), "/chat").result_int() ==
        200u);

    // The gzipped variant is another representation: another tag.
    std::string const path = "/assets/index-1a2b3c.js";
    auto const zipped = web.serve(get_with(path, bhttp::field::accept_encoding, "gzip"), path);
    auto const plain = web.serve(get(path), path);
    BOOST_TEST(zipped[bhttp::field::etag] != plain[bhttp::field::etag]);
    BOOST_TEST(std::string(zipped[bhttp::field::etag]).ends_with("-gz\""));
    auto req = get_with(path, bhttp::field::accept_encoding, "gzip");
    req.set(bhttp::field::if_none_match, zipped[bhttp::field::etag]);
    BOOST_TEST(web.serve(req, path).result_int() == 304u);
    req.set(bhttp::field::if_none_match, plain[bhttp::field::etag]);
    BOOST_TEST(web.serve(req, path).result_int() == 200u);
}

// Through the real server: HEAD answers are headers only whatever web_assets
// built (a file, a 404 with a body, the not-built hint), so three requests
// pipelined on one connection come back as exactly three responses.
BOOST_AUTO_TEST_CASE(head_through_the_server_is_headers_only)
{
    store_dir tmp;
    fs::create_directories(tmp.dir / "web" / "assets");
    std::string const index = "<!doctype html><div id=root></div>";
    touch(tmp.dir / "web" / "index.html", index);
    touch(tmp.dir / "web" / "assets" / "index-1a2b3c.js", "console.log(1)");

    for(bool const built : {true, false})
    {
        portfolio::server_options opt;
        opt.db_path = portfolio_test::shared_server::get().db_path;
        opt.port = 0;
        opt.threads = 1;
        opt.db_threads = 1;
        opt.charts.output_dir = (tmp.dir / "charts").string();
        opt.web_dir = built ? tmp.dir / "web" : tmp.dir / "missing";
        opt.chat.store = portfolio_test::shared_server::get().store_for("chart");
        portfolio::portfolio_server server(opt);
        BOOST_TEST(server.web_page_loaded() == built);
        std::thread runner([&] { server.run(); });

        std::string const replies = test_http::raw(server.endpoint(),
            "HEAD /assets/index-1a2b3c.js HTTP/1.1\r\nHost: t\r\n\r\n"
            "HEAD /assets/nope.js HTTP/1.1\r\nHost: t\r\n\r\n"
            "GET /chat HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
        server.stop();
        runner.join();

        // Read them back as a client would: a HEAD response's parser is told to expect no body.
        namespace bhttp = boost::beast::http;
        boost::beast::flat_buffer buf;
        buf.commit(boost::asio::buffer_copy(buf.prepare(replies.size()), boost::asio::buffer(replies)));
        auto next = [&](bool head) {
            bhttp::response_parser<bhttp::string_body> parser;
            parser.skip(head);
            boost::beast::error_code ec;
            while(!parser.is_done() && !ec)
                buf.consume(parser.put(buf.data(), ec));
            BOOST_TEST(!ec.failed(), ec.message());
            return parser.release();
        };
        auto const js = next(true);
        BOOST_TEST(js.result_int() == (built ? 200u : 404u));
        if(built)
            BOOST_TEST(js[bhttp::field::content_length] == "14");
        auto const missing = next(true);
        BOOST_TEST(missing.result_int() == 404u);
        BOOST_TEST(missing[bhttp::field::content_length] != "0"); // the length of the body a GET would get
        auto const page = next(false);
        BOOST_TEST(page.result_int() == (built ? 200u : 404u));
        if(built)
            BOOST_TEST(page.body() == index);
        else
            BOOST_TEST(page.body().find("npm run build") != std::string::npos);
        BOOST_TEST(buf.size() == 0u, "bytes after the last response: " << buf.size());
    }
}

BOOST_AUTO_TEST_SUITE_END()
