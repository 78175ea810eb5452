#include "app/web_assets.hpp"

#include <fstream>
#include <iterator>

namespace portfolio {

namespace {

std::string content_type_of(std::filesystem::path const& p)
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

std::string read_file(std::filesystem::path const& p)
{
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The page's scripts and styles come from this server only; charts are PNGs from the API.
constexpr char const* content_security_policy =
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; "
    "frame-ancestors 'none'; base-uri 'self'";

} // namespace

web_assets web_assets::load(std::filesystem::path const& dir)
{
    web_assets w;
    std::error_code ec;
    if(dir.empty() || !std::filesystem::is_regular_file(dir / "index.html", ec))
        return w;
    w.dir_ = dir;
    w.index_ = file{read_file(dir / "index.html"), "text/html; charset=utf-8", "no-cache"};
    for(auto it = std::filesystem::recursive_directory_iterator(dir, ec); !ec && it != std::filesystem::end(it);
        it.increment(ec))
    {
        if(!it->is_regular_file(ec))
            continue;
        auto const relative = std::filesystem::relative(it->path(), dir, ec).generic_string();
        if(ec || relative == "index.html")
            continue;
        // Vite names what it puts under assets/ by content hash: such a name never changes meaning.
        bool const hashed = relative.starts_with("assets/");
        w.files_.emplace("/" + relative, file{read_file(it->path()), content_type_of(it->path()),
                                             hashed ? "public, max-age=31536000, immutable" : "public, max-age=3600"});
    }
    return w;
}

agentio::http::response web_assets::serve(agentio::http::request const& req, std::string_view path) const
{
    namespace bhttp = boost::beast::http;
    if(req.method() != bhttp::verb::get && req.method() != bhttp::verb::head)
    {
        auto res = agentio::http::make_error_response(bhttp::status::method_not_allowed, "Método no permitido; usa GET",
            req.version(), req.keep_alive());
        res.set(bhttp::field::allow, "GET, HEAD");
        return res;
    }
    file const* f = nullptr;
    if(auto it = files_.find(path); it != files_.end())
        f = &it->second;
    else if(path.starts_with("/assets/") || path.find('.') != std::string_view::npos)
        return agentio::http::make_error_response(bhttp::status::not_found,
            "Recurso no encontrado: '" + std::string(path) + "'", req.version(), req.keep_alive());
    else if(index_)
        f = &*index_; // /, /chat, /detail/{id}: the page routes itself
    agentio::http::response res{bhttp::status::ok, req.version()};
    res.set(bhttp::field::server, "agentio-portfolio");
    res.keep_alive(req.keep_alive());
    if(!f)
    {
        res.result(bhttp::status::not_found);
        res.set(bhttp::field::content_type, "text/html; charset=utf-8");
        res.body() = "<!doctype html><html lang=\"es\"><meta charset=\"utf-8\"><title>Portfolio Digital</title>"
                     "<p>La página del asistente no está construida. Ejecute <code>npm ci &amp;&amp; npm run build</code> en "
                     "<code>reference_server/web</code> (lo hace <code>scripts/run.sh</code>), o indique su carpeta con "
                     "<code>--web-dir</code> / <code>PORTFOLIO_WEB_DIR</code>.</p><p>La API sigue en "
                     "<a href=\"/api/v1/datos-relevantes?limit=5\">/api/v1</a>.</p></html>";
        res.prepare_payload();
        return res;
    }
    res.set(bhttp::field::content_type, f->content_type);
    res.set(bhttp::field::cache_control, f->cache_control);
    res.set("X-Content-Type-Options", "nosniff");
    if(index_ && f == &*index_)
        res.set("Content-Security-Policy", content_security_policy);
    if(req.method() == bhttp::verb::get)
        res.body() = f->body;
    res.content_length(f->body.size());
    return res;
}

} // namespace portfolio
