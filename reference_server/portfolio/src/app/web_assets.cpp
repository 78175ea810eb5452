// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "app/web_assets.hpp"

#include "app/error_body.hpp"

namespace portfolio {

namespace {

// The answer to a page route when the page is not built.
constexpr std::string_view missing_page =
    "<!doctype html><html lang=\"es\"><meta charset=\"utf-8\"><title>Portfolio Digital</title>"
    "<p>La página del asistente no está construida. Ejecute <code>npm ci &amp;&amp; npm run build</code> en "
    "<code>reference_server/portfolio/web</code> (lo hace <code>scripts/run.sh</code>), o indique su carpeta con "
    "<code>--web-dir</code> / <code>PORTFOLIO_WEB_DIR</code>.</p><p>La API sigue en "
    "<a href=\"/api/v1/datos-relevantes?limit=5\">/api/v1</a>.</p></html>";

} // namespace

agentio::http::static_files load_web_page(std::filesystem::path const& dir)
{
    return agentio::http::static_files::load(dir,
        {.server_name = "agentio-portfolio",
            .method_not_allowed = "Método no permitido; usa GET",
            .not_found = "Recurso no encontrado: '{path}'",
            .missing_page_html = std::string(missing_page),
            .error_body = write_detail});
}

} // namespace portfolio
