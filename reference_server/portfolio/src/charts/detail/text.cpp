// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "charts/detail/text.hpp"

#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_TRUETYPE_TABLES_H
#include FT_ADVANCES_H
#include FT_SIZES_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <stdexcept>
#include <unordered_map>
#include <vector>

namespace portfolio::charts::detail {

namespace {

/// Decodes UTF-8; malformed sequences become U+FFFD.
std::vector<char32_t> decode_utf8(std::string_view s)
{
    std::vector<char32_t> out;
    out.reserve(s.size());
    std::size_t i = 0;
    while(i < s.size())
    {
        auto const b = static_cast<unsigned char>(s[i]);
        int len = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
        char32_t cp = len == 1 ? b : len == 2 ? (b & 0x1F) : len == 3 ? (b & 0x0F) : (b & 0x07);
        bool ok = len != 0 && i + len <= s.size();
        for(int k = 1; ok && k < len; ++k)
        {
            auto const c = static_cast<unsigned char>(s[i + k]);
            ok = (c & 0xC0) == 0x80;
            cp = (cp << 6) | (c & 0x3F);
        }
        static constexpr char32_t min_for_len[] = {0, 0, 0x80, 0x800, 0x10000};
        if(ok && (cp < min_for_len[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)))
            ok = false;
        if(!ok)
        {
            out.push_back(0xFFFD);
            i += 1;
            continue;
        }
        out.push_back(cp);
        i += static_cast<std::size_t>(len);
    }
    return out;
}

std::string encode_utf8(std::u32string_view cps)
{
    std::string out;
    for(char32_t cp : cps)
    {
        if(cp < 0x80)
        {
            out.push_back(static_cast<char>(cp));
        }
        else if(cp < 0x800)
        {
            out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
            out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
        }
        else if(cp < 0x10000)
        {
            out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
            out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
            out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
        }
        else
        {
            out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
            out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
            out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
            out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
        }
    }
    return out;
}

constexpr int phases = 4; // sub-pixel positions per axis
constexpr std::size_t max_cached_glyphs = 16384;

struct glyph_bitmap
{
    int left = 0, top = 0, width = 0, rows = 0;
    std::vector<std::uint8_t> pixels; // width × rows
};

struct char_info
{
    FT_UInt index = 0;
    double advance = 0; // pixels, unhinted
};

/// One laid-out glyph: its index and pen position along the baseline.
struct placed_glyph
{
    FT_UInt index;
    double x;
};

} // namespace

struct font_set::impl
{
    std::string dir;
    FT_Library library = nullptr;
    FT_Face faces[2] = {nullptr, nullptr};
    double cap_height_em[2] = {0.73, 0.73};
    std::unordered_map<std::uint64_t, FT_Size> sizes;       // (weight, size in 1/64 px)
    std::unordered_map<std::uint64_t, char_info> chars;     // (weight, size, code point)
    std::unordered_map<std::uint64_t, glyph_bitmap> glyphs; // (weight, size, glyph, angle, phases)

    explicit impl(std::string font_dir) : dir(std::move(font_dir))
    {
        if(FT_Init_FreeType(&library) != 0)
            throw std::runtime_error("no se ha podido iniciar FreeType");
        char const* const files[2] = {"DejaVuSans.ttf", "DejaVuSans-Bold.ttf"};
        for(int i = 0; i < 2; ++i)
        {
            std::string const path = dir + "/" + files[i];
            if(FT_New_Face(library, path.c_str(), 0, &faces[i]) != 0)
            {
                faces[i] = nullptr;
                release();
                throw std::runtime_error("no se puede cargar la fuente " + path +
                    " (en Debian: apt-get install fonts-dejavu-core)");
            }
            if(auto const* os2 = static_cast<TT_OS2 const*>(FT_Get_Sfnt_Table(faces[i], FT_SFNT_OS2));
                os2 != nullptr && os2->version >= 2 && os2->sCapHeight > 0)
                cap_height_em[i] = static_cast<double>(os2->sCapHeight) / faces[i]->units_per_EM;
        }
    }
    impl(impl const&) = delete;
    impl& operator=(impl const&) = delete;
    ~impl() { release(); }

    void release() noexcept
    {
        for(auto& f : faces)
            if(f != nullptr)
                FT_Done_Face(f); // also frees its FT_Size objects
        faces[0] = faces[1] = nullptr;
        if(library != nullptr)
            FT_Done_FreeType(library);
        library = nullptr;
    }

    static std::uint32_t size_key(double size_px)
    {
        return static_cast<std::uint32_t>(std::lround(std::clamp(size_px, 1.0, 2000.0) * 64));
    }

    /// Makes `size_px` the active size of the face of `weight`.
    FT_Face face_at(font_weight weight, double size_px)
    {
        int const w = weight == font_weight::bold ? 1 : 0;
        FT_Face face = faces[w];
        std::uint32_t const sk = size_key(size_px);
        std::uint64_t const key = (static_cast<std::uint64_t>(w) << 32) | sk;
        auto it = sizes.find(key);
        if(it == sizes.end())
        {
            FT_Size size = nullptr;
            if(FT_New_Size(face, &size) != 0)
                throw std::runtime_error("FreeType: no se puede crear un tamaño de fuente");
            FT_Activate_Size(size);
            FT_Set_Char_Size(face, 0, static_cast<FT_F26Dot6>(sk), 72, 72);
            it = sizes.emplace(key, size).first;
        }
        else if(face->size != it->second)
        {
            FT_Activate_Size(it->second);
        }
        return face;
    }

    char_info const& char_at(font_weight weight, double size_px, char32_t cp)
    {
        std::uint64_t const key = (static_cast<std::uint64_t>(weight == font_weight::bold) << 63) |
            (static_cast<std::uint64_t>(size_key(size_px)) << 21) | cp;
        auto it = chars.find(key);
        if(it != chars.end())
            return it->second;
        FT_Face face = face_at(weight, size_px);
        char_info info;
        info.index = FT_Get_Char_Index(face, cp);
        FT_Fixed advance = 0;
        if(FT_Get_Advance(face, info.index, FT_LOAD_NO_HINTING, &advance) == 0)
            info.advance = static_cast<double>(advance) / 65536.0;
        if(chars.size() > max_cached_glyphs)
            chars.clear();
        return chars.emplace(key, info).first->second;
    }

    std::vector<placed_glyph> layout(std::string_view utf8, font_weight weight, double size_px, double* width)
    {
        std::vector<placed_glyph> out;
        auto const cps = decode_utf8(utf8);
        out.reserve(cps.size());
        double pen = 0;
        FT_UInt previous = 0;
        for(char32_t cp : cps)
        {
            char_info const info = char_at(weight, size_px, cp);
            if(previous != 0 && info.index != 0)
            {
                FT_Face face = face_at(weight, size_px);
                if(FT_HAS_KERNING(face))
                {
                    FT_Vector kern{};
                    if(FT_Get_Kerning(face, previous, info.index, FT_KERNING_UNFITTED, &kern) == 0)
                        pen += kern.x / 64.0;
                }
            }
            out.push_back({info.index, pen});
            pen += info.advance;
            previous = info.index;
        }
        if(width != nullptr)
            *width = pen;
        return out;
    }

    glyph_bitmap const& glyph(font_weight weight, double size_px, FT_UInt index, int angle_deg, int px, int py)
    {
        int const angle = ((angle_deg % 360) + 360) % 360;
        std::uint64_t const key = (static_cast<std::uint64_t>(weight == font_weight::bold) << 63) |
            (static_cast<std::uint64_t>(size_key(size_px)) << 40) | (static_cast<std::uint64_t>(index) << 14) |
            (static_cast<std::uint64_t>(angle) << 4) | static_cast<std::uint64_t>(px * phases + py);
        auto it = glyphs.find(key);
        if(it != glyphs.end())
            return it->second;

        FT_Face face = face_at(weight, size_px);
        FT_Vector delta{px * 64 / phases, -py * 64 / phases}; // FreeType's y points up
        FT_Int32 flags = FT_LOAD_DEFAULT;
        if(angle == 0)
        {
            FT_Set_Transform(face, nullptr, &delta);
            flags |= FT_LOAD_TARGET_LIGHT; // snaps heights to the pixel grid, keeps widths
        }
        else
        {
            double const a = angle * std::numbers::pi / 180.0;
            auto const c = static_cast<FT_Fixed>(std::lround(std::cos(a) * 65536.0));
            auto const s = static_cast<FT_Fixed>(std::lround(std::sin(a) * 65536.0));
            FT_Matrix m{c, -s, s, c};
            FT_Set_Transform(face, &m, &delta);
            flags |= FT_LOAD_NO_HINTING;
        }
        glyph_bitmap g;
        if(FT_Load_Glyph(face, index, flags) == 0 && FT_Render_Glyph(face->glyph, FT_RENDER_MODE_NORMAL) == 0)
        {
            FT_Bitmap const& bm = face->glyph->bitmap;
            g.left = face->glyph->bitmap_left;
            g.top = face->glyph->bitmap_top;
            g.width = static_cast<int>(bm.width);
            g.rows = static_cast<int>(bm.rows);
            g.pixels.resize(static_cast<std::size_t>(g.width) * g.rows);
            for(int r = 0; r < g.rows; ++r)
            {
                auto const* src = bm.buffer + static_cast<std::ptrdiff_t>(r) * bm.pitch;
                std::copy(src, src + g.width, g.pixels.begin() + static_cast<std::ptrdiff_t>(r) * g.width);
            }
        }
        FT_Set_Transform(face, nullptr, nullptr);
        if(glyphs.size() > max_cached_glyphs)
            glyphs.clear();
        return glyphs.emplace(key, std::move(g)).first->second;
    }
};

font_set& font_set::for_thread(std::string const& font_dir)
{
    thread_local std::unique_ptr<font_set> fonts;
    if(!fonts || fonts->impl_->dir != font_dir)
    {
        fonts.reset();
        fonts.reset(new font_set(font_dir));
    }
    return *fonts;
}

font_set::font_set(std::string const& font_dir) : impl_(std::make_unique<impl>(font_dir)) {}

font_set::~font_set() = default;

text_extent font_set::measure(std::string_view utf8, font_weight weight, double size_px)
{
    text_extent e;
    impl_->layout(utf8, weight, size_px, &e.width);
    FT_Face face = impl_->face_at(weight, size_px);
    e.ascent = static_cast<double>(face->size->metrics.ascender) / 64.0;
    e.descent = -static_cast<double>(face->size->metrics.descender) / 64.0;
    e.cap_height = impl_->cap_height_em[weight == font_weight::bold ? 1 : 0] * size_px;
    return e;
}

void font_set::draw(canvas& target, std::string_view utf8, font_weight weight, double size_px, rgb colour, point anchor,
    double h_align, v_anchor v, int angle_deg)
{
    double width = 0;
    auto const placed = impl_->layout(utf8, weight, size_px, &width);
    text_extent const e = measure("", weight, size_px);
    double const v_offset = v == v_anchor::top ? e.ascent
        : v == v_anchor::middle                ? e.cap_height / 2
        : v == v_anchor::bottom                ? -e.descent
                                               : 0.0;
    double const a = angle_deg * std::numbers::pi / 180.0;
    point const along{std::cos(a), -std::sin(a)}; // the baseline's direction on screen (y down)
    point const up{-std::sin(a), -std::cos(a)};
    point origin{anchor.x - h_align * width * along.x - v_offset * up.x,
        anchor.y - h_align * width * along.y - v_offset * up.y};
    if(angle_deg % 360 == 0)
        origin.y = std::round(origin.y); // horizontal text sits on a whole-pixel baseline

    for(auto const& g : placed)
    {
        double const gx = origin.x + g.x * along.x;
        double const gy = origin.y + g.x * along.y;
        double fx = std::floor(gx);
        double fy = std::floor(gy);
        int px = static_cast<int>(std::lround((gx - fx) * phases));
        int py = static_cast<int>(std::lround((gy - fy) * phases));
        if(px == phases)
        {
            px = 0;
            fx += 1;
        }
        if(py == phases)
        {
            py = 0;
            fy += 1;
        }
        auto const& bm = impl_->glyph(weight, size_px, g.index, angle_deg, px, py);
        if(bm.pixels.empty())
            continue;
        target.draw_mask(static_cast<int>(fx) + bm.left, static_cast<int>(fy) - bm.top, bm.pixels.data(), bm.width,
            bm.rows, bm.width, colour);
    }
}

std::string font_set::ellipsize(std::string_view utf8, font_weight weight, double size_px, double max_width)
{
    double width = 0;
    impl_->layout(utf8, weight, size_px, &width);
    if(width <= max_width)
        return std::string(utf8);
    auto cps = decode_utf8(utf8);
    std::u32string text(cps.begin(), cps.end());
    while(!text.empty())
    {
        text.pop_back();
        while(!text.empty() && text.back() == U' ')
            text.pop_back();
        std::string const candidate = encode_utf8(text) + "…";
        impl_->layout(candidate, weight, size_px, &width);
        if(width <= max_width)
            return candidate;
    }
    return "…";
}

} // namespace portfolio::charts::detail
