//
// agentio/http/impl/static_files.ipp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_HTTP_IMPL_STATIC_FILES_IPP
#define AGENTIO_HTTP_IMPL_STATIC_FILES_IPP

#include <agentio/config.hpp>
#include <agentio/http/accept.hpp>
#include <agentio/messages.hpp>

#include <boost/beast/zlib/deflate_stream.hpp>
#include <boost/crc.hpp>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <system_error>
#include <utility>

namespace agentio::http {

namespace detail {

AGENTIO_DECL std::string content_type_of(std::filesystem::path const& p)
{
    auto const ext = p.extension().string();
    if(ext == ".html")
        return "text/html; charset=utf-8";
    if(ext == ".js" || ext == ".mjs")
        return "text/javascript; charset=utf-8";
    if(ext == ".css")
        return "text/css; charset=utf-8";
    if(ext == ".svg")
        return "image/svg+xml";
    if(ext == ".png")
        return "image/png";
    if(ext == ".ico")
        return "image/x-icon";
    if(ext == ".json" || ext == ".map")
        return "application/json";
    if(ext == ".woff2")
        return "font/woff2";
    if(ext == ".txt")
        return "text/plain; charset=utf-8";
    return "application/octet-stream";
}

AGENTIO_DECL std::string read_file(std::filesystem::path const& p)
{
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

AGENTIO_DECL bool compressible(std::string_view content_type)
{
    return content_type.starts_with("text/") || content_type.starts_with("application/json") ||
        content_type.starts_with("image/svg+xml");
}

// RFC 1952: a 10-byte header, raw deflate (Beast's port of zlib, level 9: done
// once per file at start), CRC-32 and length, both little-endian.
AGENTIO_DECL std::string gzip(std::string_view in)
{
    namespace zlib = boost::beast::zlib;
    zlib::deflate_stream deflate;
    deflate.reset(9, 15, 8, zlib::Strategy::normal);
    std::string out("\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff", 10); // no name, no time; max compression; unknown OS
    std::size_t const header = out.size();
    out.resize(header + deflate.upper_bound(in.size()));
    zlib::z_params zp;
    zp.next_in = in.data();
    zp.avail_in = in.size();
    zp.next_out = out.data() + header;
    zp.avail_out = out.size() - header;
    boost::system::error_code ec;
    deflate.write(zp, zlib::Flush::finish, ec);
    if(ec != zlib::error::end_of_stream)
        return {}; // not finished in one call: serve the file as it is rather than a truncated stream
    out.resize(header + zp.total_out);
    boost::crc_32_type crc;
    crc.process_bytes(in.data(), in.size());
    for(std::uint32_t v : {static_cast<std::uint32_t>(crc.checksum()), static_cast<std::uint32_t>(in.size())})
        for(int i = 0; i < 4; ++i)
            out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
    return out;
}

// FNV-1a over the bytes: a validator, not a security boundary.
AGENTIO_DECL std::string etag_of(std::string_view body)
{
    std::uint64_t h = 0xcbf29ce484222325ull;
    for(unsigned char c : body)
        h = (h ^ c) * 0x100000001b3ull;
    char text[24];
    std::snprintf(text, sizeof text, "\"%016llx\"", static_cast<unsigned long long>(h));
    return text;
}

// If-None-Match: `*` or a list of entity tags, weak ones compared weakly (RFC 9110 §13.1.2).
AGENTIO_DECL bool matches_etag(std::string_view header, std::string_view etag)
{
    if(trim_ows(header) == "*")
        return true;
    while(!header.empty())
    {
        auto const comma = header.find(',');
        auto tag = trim_ows(header.substr(0, comma));
        header = comma == std::string_view::npos ? std::string_view() : header.substr(comma + 1);
        if(tag.starts_with("W/"))
            tag.remove_prefix(2);
        if(tag == etag)
            return true;
    }
    return false;
}

} // namespace detail

AGENTIO_DECL static_files::file static_files::make_file(std::string body, std::string content_type,
    std::string cache_control)
{
    file f{std::move(body), {}, std::move(content_type), std::move(cache_control), {}};
    f.etag = detail::etag_of(f.body);
    // Small or incompressible files go as they are: the header and the CPU would cost more than they save.
    if(detail::compressible(f.content_type) && f.body.size() >= 1024)
        if(auto z = detail::gzip(f.body); !z.empty() && z.size() < f.body.size() - f.body.size() / 10)
            f.gzip = std::move(z);
    return f;
}

AGENTIO_DECL static_files static_files::load(std::filesystem::path const& dir, static_files_options options)
{
    static_files w;
    w.options_ = std::move(options);
    std::error_code ec;
    if(dir.empty() || !std::filesystem::is_regular_file(dir / "index.html", ec))
        return w;
    w.dir_ = dir;
    w.index_ = make_file(detail::read_file(dir / "index.html"), "text/html; charset=utf-8", "no-cache");
    for(auto it = std::filesystem::recursive_directory_iterator(dir, ec); !ec && it != std::filesystem::end(it);
        it.increment(ec))
    {
        if(!it->is_regular_file(ec))
            continue;
        auto const relative = std::filesystem::relative(it->path(), dir, ec).generic_string();
        if(ec || relative == "index.html")
            continue;
        // A content-hashed name never changes meaning.
        bool const hashed = !w.options_.immutable_prefix.empty() && relative.starts_with(w.options_.immutable_prefix);
        w.files_.emplace("/" + relative,
            make_file(detail::read_file(it->path()), detail::content_type_of(it->path()),
                hashed ? "public, max-age=31536000, immutable" : "public, max-age=3600"));
    }
    return w;
}

AGENTIO_DECL response static_files::serve(request const& req, std::string_view path) const
{
    namespace bhttp = beast::http;
    if(req.method() != bhttp::verb::get && req.method() != bhttp::verb::head)
    {
        auto res = make_error_response(bhttp::status::method_not_allowed, options_.method_not_allowed, req.version(),
            req.keep_alive(), options_.error_body);
        res.set(bhttp::field::allow, "GET, HEAD");
        return res;
    }
    file const* f = nullptr;
    if(auto it = files_.find(path); it != files_.end())
        f = &it->second;
    else if((!options_.immutable_prefix.empty() && path.size() > options_.immutable_prefix.size() &&
                path.substr(1).starts_with(options_.immutable_prefix)) ||
        path.find('.') != std::string_view::npos)
        return make_error_response(bhttp::status::not_found, format_message(options_.not_found, {{"path", path}}),
            req.version(), req.keep_alive(), options_.error_body);
    else if(index_)
        f = &*index_; // a page route (/, /chat, /detail/42): the page routes itself
    agentio::http::response res{bhttp::status::ok, req.version()};
    res.set(bhttp::field::server, options_.server_name);
    res.keep_alive(req.keep_alive());
    if(!f)
    {
        if(options_.missing_page_html.empty())
            return make_error_response(bhttp::status::not_found, format_message(options_.not_found, {{"path", path}}),
                req.version(), req.keep_alive(), options_.error_body);
        res.result(bhttp::status::not_found);
        res.set(bhttp::field::content_type, "text/html; charset=utf-8");
        res.body() = options_.missing_page_html;
        res.prepare_payload();
        return res;
    }
    // A request may carry Accept-Encoding on several lines: one list (RFC 9110 §5.3).
    std::string accept_encoding;
    for(auto [it, end] = req.equal_range(bhttp::field::accept_encoding); it != end; ++it)
        accept_encoding.append(accept_encoding.empty() ? "" : ", ").append(it->value());
    bool const gzipped = !f->gzip.empty() && http::accepts_coding(accept_encoding, "gzip");
    std::string const etag = gzipped ? f->etag.substr(0, f->etag.size() - 1) + "-gz\"" : f->etag;
    res.set(bhttp::field::content_type, f->content_type);
    res.set(bhttp::field::cache_control, f->cache_control);
    res.set(bhttp::field::etag, etag);
    res.set("X-Content-Type-Options", "nosniff");
    if(!f->gzip.empty())
        res.set(bhttp::field::vary, "Accept-Encoding");
    if(index_ && f == &*index_ && !options_.content_security_policy.empty())
        res.set("Content-Security-Policy", options_.content_security_policy);
    if(auto const inm = req[bhttp::field::if_none_match]; !inm.empty() && detail::matches_etag(inm, etag))
    {
        res.result(bhttp::status::not_modified);
        res.erase(bhttp::field::content_type);
        return res;
    }
    std::string const& body = gzipped ? f->gzip : f->body;
    if(gzipped)
        res.set(bhttp::field::content_encoding, "gzip");
    if(req.method() == bhttp::verb::get)
        res.body() = body;
    res.content_length(body.size()); // HEAD too: the length a GET would get
    return res;
}

} // namespace agentio::http

#endif
