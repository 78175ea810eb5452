//
// agentio/chat_completions/impl/files.ipp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_CHAT_COMPLETIONS_IMPL_FILES_IPP
#define AGENTIO_CHAT_COMPLETIONS_IMPL_FILES_IPP

#include <agentio/chat_completions/files.hpp>
#include <agentio/http/json_response.hpp>
#include <agentio/http/multipart.hpp>
#include <agentio/text.hpp>

#include <boost/url/parse.hpp>

#include <charconv>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>

namespace agentio::chat_completions {

namespace detail {

inline beast::http::message_generator file_error(api_error const& e, http::request const& req)
{
    return http::json_response(static_cast<beast::http::status>(e.status), to_json(e), req);
}

inline std::string supported_types_text()
{
    std::string out;
    for(auto const& t : supported_file_types())
        out.append(out.empty() ? "" : ", ").append(t.name).append(" (").append(t.media_type).append(")");
    return out;
}

/// "file-" and 24 characters from the system's randomness: an id nobody guesses.
inline std::string new_file_id()
{
    static constexpr char digits[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    std::random_device random;
    std::string id = "file-";
    for(int i = 0; i < 24; ++i)
        id.push_back(digits[random() % 62]);
    return id;
}

inline bool is_file_id(std::string_view id) noexcept
{
    if(!id.starts_with("file-") || id.size() > 64 || id.size() < 6)
        return false;
    for(char c : id.substr(5))
        if(!std::isalnum(static_cast<unsigned char>(c)))
            return false;
    return true;
}

inline bool ends_with_any(std::string_view name, std::initializer_list<std::string_view> endings)
{
    std::string lower(name);
    for(auto& c : lower)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for(auto e : endings)
        if(lower.ends_with(e))
            return true;
    return false;
}

/// A file being written: removed unless kept.
class partial_file
{
public:
    explicit partial_file(std::filesystem::path path) : path_(std::move(path)) {}
    partial_file(partial_file const&) = delete;
    partial_file& operator=(partial_file const&) = delete;
    ~partial_file()
    {
        if(!kept_)
        {
            out_.close();
            std::error_code ec;
            std::filesystem::remove(path_, ec);
        }
    }

    bool open()
    {
        out_.open(path_, std::ios::binary | std::ios::trunc);
        return static_cast<bool>(out_);
    }
    bool write(std::string_view bytes)
    {
        out_.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        return static_cast<bool>(out_);
    }
    bool close()
    {
        out_.close();
        return !out_.fail();
    }
    void keep() noexcept { kept_ = true; }

private:
    std::filesystem::path path_;
    std::ofstream out_;
    bool kept_ = false;
};

} // namespace detail

AGENTIO_DECL std::vector<file_type> const& supported_file_types()
{
    static std::vector<file_type> const types = {{"application/pdf", "PDF"},
        {"application/vnd.openxmlformats-officedocument.wordprocessingml.document", "DOCX"},
        {"text/plain", "plain text"}, {"text/markdown", "Markdown"}, {"text/csv", "CSV"}, {"application/json", "JSON"},
        {"application/jsonl", "JSON Lines"}};
    return types;
}

AGENTIO_DECL std::optional<std::string_view> sniff_file_type(std::string_view content, std::string_view filename)
{
    auto const& types = supported_file_types();
    if(content.starts_with("%PDF-"))
        return types[0].media_type;
    if(content.starts_with("PK\x03\x04"))
    {
        // A zip: a DOCX names its parts in clear in the local headers and the
        // central directory; nothing needs inflating to know it.
        if(content.find("[Content_Types].xml") != std::string_view::npos &&
            content.find("word/document.xml") != std::string_view::npos)
            return types[1].media_type;
        return std::nullopt;
    }
    if(content.starts_with("\xEF\xBB\xBF"))
        content.remove_prefix(3);
    if(content.find('\0') != std::string_view::npos)
        return std::nullopt;
    std::string repaired;
    agentio::append_valid_utf8(repaired, content);
    if(repaired.size() != content.size() || repaired != content)
        return std::nullopt; // not UTF-8: not a text this API takes
    auto const first = content.find_first_not_of(" \t\r\n");
    if(first == std::string_view::npos)
        return types[2].media_type; // empty or blank: plain text
    auto const last = content.find_last_not_of(" \t\r\n");
    if(content[first] == '[' && content[last] == ']')
        return types[5].media_type;
    if(content[first] == '{')
    {
        // One object, or an object a line.
        bool every_line_an_object = true;
        std::size_t lines = 0;
        std::size_t start = 0;
        while(start < content.size() && every_line_an_object)
        {
            auto const end = std::min(content.find('\n', start), content.size());
            auto line = content.substr(start, end - start);
            while(!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
                line.remove_suffix(1);
            while(!line.empty() && (line.front() == ' ' || line.front() == '\t'))
                line.remove_prefix(1);
            if(!line.empty())
            {
                every_line_an_object = line.front() == '{' && line.back() == '}';
                ++lines;
            }
            start = end + 1;
        }
        if(every_line_an_object && lines > 1)
            return types[6].media_type;
        if(content[last] == '}')
            return types[5].media_type;
    }
    if(detail::ends_with_any(filename, {".jsonl", ".ndjson"}) && content[first] == '{')
        return types[6].media_type;
    if(detail::ends_with_any(filename, {".csv"}))
        return types[4].media_type;
    if(detail::ends_with_any(filename, {".md", ".markdown"}))
        return types[3].media_type;
    return types[2].media_type;
}

AGENTIO_DECL json::object to_json(threads::file_record const& file)
{
    json::object o{{"id", file.id}, {"object", "file"}, {"bytes", file.bytes},
        {"created_at", std::chrono::duration_cast<std::chrono::seconds>(file.created_at.time_since_epoch()).count()},
        {"expires_at", nullptr}, {"filename", file.filename}, {"purpose", file.purpose}};
    auto const* status = file.metadata.if_contains("status");
    o["status"] = status && status->is_string() ? *status : json::value("processed");
    auto const* details = file.metadata.if_contains("status_details");
    o["status_details"] = details ? *details : json::value(nullptr);
    // Ours, beside OpenAI's fields: what the type sniffed is.
    o["media_type"] = file.media_type;
    return o;
}

AGENTIO_DECL files_api::files_api(threads::thread_store& store, files_options options)
    : store_(store)
    , options_(std::move(options))
{
    std::filesystem::create_directories(options_.folder);
}

AGENTIO_DECL std::filesystem::path files_api::path_of(std::string_view id) const
{
    return options_.folder / std::string(id);
}

AGENTIO_DECL std::size_t files_api::body_limit(beast::http::request_header<> const& head, std::size_t otherwise) const
{
    if(head.method() == beast::http::verb::post)
    {
        auto target = head.target();
        target = target.substr(0, target.find('?'));
        if(target == options_.base_path + "/files")
            return static_cast<std::size_t>(options_.max_file_bytes) + 64 * 1024; // the form around the file
    }
    return otherwise;
}

AGENTIO_DECL void files_api::add_routes(http::router<>& routes) const
{
    auto const base = options_.base_path + "/files";
    routes.post(base, [this](http::request&& req, http::route_params const&) { return upload(std::move(req)); });
    routes.get(base, [this](http::request&& req, http::route_params const&) { return list(std::move(req)); });
    routes.get(base + "/{id}", [this](http::request&& req, http::route_params const& p) {
        return retrieve(std::move(req), std::string(p["id"]), false);
    });
    routes.get(base + "/{id}/content", [this](http::request&& req, http::route_params const& p) {
        return retrieve(std::move(req), std::string(p["id"]), true);
    });
    routes.route(beast::http::verb::delete_, base + "/{id}", [this](http::request&& req, http::route_params const& p) {
        return remove(std::move(req), std::string(p["id"]));
    });
}

namespace detail {

/// What the form of an upload held.
struct upload_form
{
    std::string purpose;
    std::optional<std::string> filename;
    std::uint64_t bytes = 0;
    bool too_large = false;
    bool has_file = false;
    bool write_failed = false;
    std::string content; // the file's bytes, also written to the folder
};

enum class form_field
{
    other,
    file,
    purpose
};

/// Reads an upload's form: the first `file` part into `partial` (and memory), `purpose`'s value.
inline boost::system::error_code read_upload_form(std::string_view boundary, std::string_view body,
    std::uint64_t max_file_bytes, partial_file& partial, upload_form& form)
{
    form_field current = form_field::other;
    http::multipart_parser parser(boundary,
        {.part = [&](http::multipart_part const& part) -> boost::system::error_code {
             current = form_field::other;
             if(part.name == "file" && !form.has_file)
             {
                 current = form_field::file;
                 form.has_file = true;
                 form.filename = part.filename;
             }
             else if(part.name == "purpose")
             {
                 current = form_field::purpose;
                 form.purpose.clear();
             }
             return {};
         },
            .data = [&](std::string_view piece) -> boost::system::error_code {
                if(current == form_field::purpose)
                {
                    if(form.purpose.size() + piece.size() > 64)
                        return make_error_code(http::multipart_error::malformed_head);
                    form.purpose.append(piece);
                }
                else if(current == form_field::file)
                {
                    form.bytes += piece.size();
                    if(form.bytes > max_file_bytes)
                    {
                        form.too_large = true;
                        return make_error_code(http::multipart_error::truncated);
                    }
                    form.content.append(piece);
                    if(!partial.write(piece))
                    {
                        form.write_failed = true;
                        return make_error_code(http::multipart_error::truncated);
                    }
                }
                return {};
            },
            .end = [&]() -> boost::system::error_code {
                current = form_field::other;
                return {};
            }});
    auto ec = parser.write(body);
    if(!ec)
        ec = parser.finish();
    return ec;
}

inline api_error no_such_file(std::string_view id)
{
    return {404, "No such File object: " + std::string(id), "invalid_request_error", "id", {}};
}

inline api_error cannot(std::string const& what, std::string const& why = {})
{
    return {500, "The server cannot " + what + " now" + (why.empty() ? "." : ": " + why), "server_error", {}, {}};
}

} // namespace detail

AGENTIO_DECL asio::awaitable<beast::http::message_generator> files_api::upload(http::request req) const
{
    std::string owner;
    if(options_.authenticate)
    {
        auto user = options_.authenticate(req);
        if(!user)
            co_return detail::file_error(user.error(), req);
        owner = std::move(*user);
    }
    auto const boundary = http::multipart_boundary(req[beast::http::field::content_type]);
    if(!boundary)
        co_return detail::file_error({400,
                                         "Send the file as multipart/form-data with the fields 'file' and 'purpose' "
                                         "(Content-Type: multipart/form-data; boundary=...).",
                                         "invalid_request_error", "file", "invalid_content_type"},
            req);

    std::string const id = detail::new_file_id();
    auto const final_path = path_of(id);
    detail::partial_file partial(final_path.string() + ".part");
    if(!partial.open())
        co_return detail::file_error({500, "The server cannot store files now.", "server_error", {}, {}}, req);

    detail::upload_form form;
    auto const ec = detail::read_upload_form(*boundary, req.body(), options_.max_file_bytes, partial, form);
    if(form.too_large)
        co_return detail::file_error({413,
                                         "The file is larger than this server's limit of " +
                                             std::to_string(options_.max_file_bytes) + " bytes.",
                                         "invalid_request_error", "file", "file_too_large"},
            req);
    if(form.write_failed)
        co_return detail::file_error({500, "The server cannot store files now.", "server_error", {}, {}}, req);
    if(ec)
        co_return detail::file_error(
            {400, "The multipart body is malformed: " + ec.message() + ".", "invalid_request_error", "file", {}}, req);
    if(!form.has_file)
        co_return detail::file_error({400, "Missing required parameter: 'file'.", "invalid_request_error", "file",
                                         "missing_required_parameter"},
            req);
    if(form.purpose.empty())
        co_return detail::file_error({400, "Missing required parameter: 'purpose'.", "invalid_request_error", "purpose",
                                         "missing_required_parameter"},
            req);
    if(std::find(options_.purposes.begin(), options_.purposes.end(), form.purpose) == options_.purposes.end())
    {
        std::string allowed;
        for(auto const& p : options_.purposes)
            allowed.append(allowed.empty() ? "'" : ", '").append(p).append("'");
        co_return detail::file_error(
            {400, "Invalid value for 'purpose': '" + form.purpose + "'. Expected one of " + allowed + ".",
                "invalid_request_error", "purpose", "invalid_value"},
            req);
    }
    std::string filename;
    agentio::append_valid_utf8(filename, form.filename.value_or("upload"));
    if(filename.empty() || filename.size() > 255)
        filename = filename.empty() ? "upload" : filename.substr(0, agentio::utf8_byte_prefix(filename, 255));
    auto const type = sniff_file_type(form.content, filename);
    if(!type)
        co_return detail::file_error({415,
                                         "The file '" + filename +
                                             "' is of a type this server does not take. Supported types: " +
                                             detail::supported_types_text() + ".",
                                         "invalid_request_error", "file", "unsupported_file_type"},
            req);
    if(!partial.close())
        co_return detail::file_error({500, "The server cannot store files now.", "server_error", {}, {}}, req);

    stored_file stored;
    stored.record = {.id = id,
        .owner = owner,
        .filename = filename,
        .purpose = form.purpose,
        .media_type = std::string(*type),
        .bytes = form.bytes,
        .created_at = threads::now(),
        .metadata = {{"status", "processed"}}};
    std::error_code moved;
    std::filesystem::rename(final_path.string() + ".part", final_path, moved);
    if(moved)
        co_return detail::file_error({500, "The server cannot store files now.", "server_error", {}, {}}, req);
    partial.keep();
    // The bytes are in place before the record: a record never names missing bytes.
    auto saved = co_await store_.save_file(stored.record);
    if(!saved)
    {
        std::error_code ignored;
        std::filesystem::remove(final_path, ignored);
        co_return detail::file_error(
            {500, "The server cannot store files now: " + saved.error().message, "server_error", {}, {}}, req);
    }
    if(options_.on_stored)
    {
        stored.content = std::move(form.content);
        auto metadata = co_await options_.on_stored(stored);
        if(!metadata)
        {
            // What could not be processed is not kept.
            co_await store_.delete_file(id, owner);
            std::error_code ignored;
            std::filesystem::remove(final_path, ignored);
            co_return detail::file_error({422, "The file '" + filename + "' cannot be used: " + metadata.error(),
                                             "invalid_request_error", "file", "unprocessable_file"},
                req);
        }
        if(!metadata->empty())
        {
            stored.record.metadata = std::move(*metadata);
            co_await store_.update_file_metadata(id, owner, stored.record.metadata);
        }
    }
    co_return http::json_response(beast::http::status::ok, to_json(stored.record), req);
}

AGENTIO_DECL asio::awaitable<beast::http::message_generator> files_api::list(http::request req) const
{
    std::string owner;
    if(options_.authenticate)
    {
        auto user = options_.authenticate(req);
        if(!user)
            co_return detail::file_error(user.error(), req);
        owner = std::move(*user);
    }
    threads::file_listing which;
    which.limit = 10000;
    auto const url = boost::urls::parse_origin_form(req.target());
    if(!url)
        co_return detail::file_error({400, "The request target is malformed.", "invalid_request_error", {}, {}}, req);
    for(auto const& p : url->params())
    {
        if(p.key == "purpose")
            which.purpose = p.value;
        else if(p.key == "after")
            which.after = p.value;
        else if(p.key == "order")
        {
            if(p.value != "asc" && p.value != "desc")
                co_return detail::file_error(
                    {400, "Invalid value for 'order': '" + p.value + "'. Expected 'asc' or 'desc'.",
                        "invalid_request_error", "order", "invalid_value"},
                    req);
            which.newest_first = p.value == "desc";
        }
        else if(p.key == "limit")
        {
            std::size_t n = 0;
            auto const [end, err] = std::from_chars(p.value.data(), p.value.data() + p.value.size(), n);
            if(err != std::errc() || end != p.value.data() + p.value.size() || n < 1 || n > 10000)
                co_return detail::file_error(
                    {400, "Invalid value for 'limit': '" + p.value + "'. Expected a whole number from 1 to 10000.",
                        "invalid_request_error", "limit", "invalid_value"},
                    req);
            which.limit = n;
        }
    }
    auto files = co_await store_.list_files(owner, which);
    if(!files)
        co_return detail::file_error(
            {500, "The files cannot be listed now: " + files.error().message, "server_error", {}, {}}, req);
    bool const more = files->size() > which.limit;
    if(more)
        files->resize(which.limit);
    json::array data;
    for(auto const& f : *files)
        data.push_back(to_json(f));
    json::object body{{"object", "list"}, {"data", std::move(data)},
        {"first_id", files->empty() ? json::value(nullptr) : json::value(files->front().id)},
        {"last_id", files->empty() ? json::value(nullptr) : json::value(files->back().id)}, {"has_more", more}};
    co_return http::json_response(beast::http::status::ok, body, req);
}

AGENTIO_DECL asio::awaitable<boost::system::result<stored_file, api_error>> files_api::read(std::string_view owner,
    std::string_view id) const
{
    if(!detail::is_file_id(id))
        co_return detail::no_such_file(id);
    auto found = co_await store_.find_file(id, owner);
    if(!found)
        co_return api_error{500, "The file cannot be read now: " + found.error().message, "server_error", {}, {}};
    if(!*found)
        co_return detail::no_such_file(id);
    stored_file out;
    out.record = std::move(**found);
    std::ifstream in(path_of(id), std::ios::binary);
    if(!in)
        co_return api_error{500, "The file's content is missing on this server.", "server_error", {}, {}};
    out.content.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    co_return out;
}

AGENTIO_DECL asio::awaitable<beast::http::message_generator> files_api::retrieve(http::request req, std::string id,
    bool content) const
{
    std::string owner;
    if(options_.authenticate)
    {
        auto user = options_.authenticate(req);
        if(!user)
            co_return detail::file_error(user.error(), req);
        owner = std::move(*user);
    }
    if(!content)
    {
        threads::result<std::optional<threads::file_record>> found;
        if(detail::is_file_id(id))
            found = co_await store_.find_file(id, owner);
        if(!found)
            co_return detail::file_error(
                {500, "The file cannot be read now: " + found.error().message, "server_error", {}, {}}, req);
        if(!*found)
            co_return detail::file_error({404, "No such File object: " + id, "invalid_request_error", "id", {}}, req);
        co_return http::json_response(beast::http::status::ok, to_json(**found), req);
    }
    auto file = co_await read(owner, id);
    if(!file)
        co_return detail::file_error(file.error(), req);
    http::response res{beast::http::status::ok, req.version()};
    res.set(beast::http::field::content_type, file->record.media_type);
    res.set(beast::http::field::content_disposition, "attachment");
    res.body() = std::move(file->content);
    res.keep_alive(req.keep_alive());
    res.prepare_payload();
    co_return res;
}

AGENTIO_DECL asio::awaitable<beast::http::message_generator> files_api::remove(http::request req, std::string id) const
{
    std::string owner;
    if(options_.authenticate)
    {
        auto user = options_.authenticate(req);
        if(!user)
            co_return detail::file_error(user.error(), req);
        owner = std::move(*user);
    }
    threads::result<std::optional<threads::file_record>> found;
    if(detail::is_file_id(id))
        found = co_await store_.find_file(id, owner);
    if(!found)
        co_return detail::file_error(
            {500, "The file cannot be deleted now: " + found.error().message, "server_error", {}, {}}, req);
    if(!*found)
        co_return detail::file_error({404, "No such File object: " + id, "invalid_request_error", "id", {}}, req);
    if(options_.on_deleted)
        co_await options_.on_deleted(**found);
    auto deleted = co_await store_.delete_file(id, owner);
    if(!deleted)
        co_return detail::file_error(
            {500, "The file cannot be deleted now: " + deleted.error().message, "server_error", {}, {}}, req);
    std::error_code ignored;
    std::filesystem::remove(path_of(id), ignored);
    co_return http::json_response(beast::http::status::ok,
        json::object{{"id", id}, {"object", "file"}, {"deleted", true}}, req);
}

} // namespace agentio::chat_completions

#endif
