//
// agentio/chat_completions/files.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// OpenAI's Files API in front of a thread store and a folder: POST /v1/files
// (multipart/form-data with `file` and `purpose`), GET /v1/files, GET
// /v1/files/{id}, GET /v1/files/{id}/content, DELETE /v1/files/{id}. Each
// file belongs to the user who uploaded it (another user's id is a 404); its
// record is kept in the store, its bytes in the folder; its type is sniffed
// from the bytes, not taken from its name. Nothing here parses a file's
// contents: that is for a sandbox.
//

#ifndef AGENTIO_CHAT_COMPLETIONS_FILES_HPP
#define AGENTIO_CHAT_COMPLETIONS_FILES_HPP

#include <agentio/chat_completions/error.hpp>
#include <agentio/config.hpp>
#include <agentio/http/router.hpp>
#include <agentio/http/server.hpp>
#include <agentio/threads.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/system/result.hpp>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agentio::chat_completions {

/// A media type uploads may have, and how it is named to people.
struct file_type
{
    std::string_view media_type;
    std::string_view name;
};

/// The types the Files API takes: PDF, DOCX, plain text, Markdown, CSV, JSON, JSON Lines.
AGENTIO_DECL std::vector<file_type> const& supported_file_types();

/** The media type of a file from its bytes (the name only tells text
    apart: CSV, Markdown or plain), or nothing for a type not supported: a
    PDF by its signature, a DOCX by its zip entries' names, text by being
    valid UTF-8 without NUL, JSON by its first and last characters, JSON
    Lines by every line being an object. Nothing is decompressed or parsed.
*/
AGENTIO_DECL std::optional<std::string_view> sniff_file_type(std::string_view content, std::string_view filename);

/// A stored file: its record and its bytes.
struct stored_file
{
    threads::file_record record;
    std::string content;
};

/// How a @ref files_api behaves.
struct files_options
{
    /// Where the bytes are kept, a file per id; created when missing.
    std::filesystem::path folder = "data/uploads";
    /// The largest file (413 beyond it, nothing kept).
    std::uint64_t max_file_bytes = 20 * 1024 * 1024;
    /// The purposes accepted (OpenAI's).
    std::vector<std::string> purposes = {"assistants", "user_data", "batch", "fine-tune", "vision", "evals"};
    /// Routes under this path: `{base}/files`.
    std::string base_path = "/v1";
    /// Who asks (the chat endpoint's function, typically); empty: everybody is the user "".
    std::function<boost::system::result<std::string, api_error>(http::request const&)> authenticate = {};
    /** Called once a file is stored, before it is answered (an ingest into a
        retrieval index, say): the metadata it returns is kept with the file
        (`status` and `status_details` are shown as OpenAI shows them). An
        error makes the upload fail and removes the file. */
    std::function<asio::awaitable<boost::system::result<json::object, std::string>>(stored_file const&)> on_stored = {};
    /// Called before a file is deleted (what was derived from it removed).
    std::function<asio::awaitable<void>(threads::file_record const&)> on_deleted = {};
};

/** The Files API over `store` (records) and a folder (bytes).

    @code
    chat_completions::files_api files(*store, {.folder = "data/uploads", .authenticate = same_as_chat});
    files.add_routes(routes);
    server_options so;
    so.max_body_bytes_for = [&](auto const& head) { return files.body_limit(head, 8 << 20); };
    @endcode
*/
class files_api
{
public:
    /// Creates the folder. Throws `std::filesystem::filesystem_error` when it cannot.
    AGENTIO_DECL files_api(threads::thread_store& store, files_options options);

    /// Adds the five routes to `routes`; this object must outlive them.
    AGENTIO_DECL void add_routes(http::router<>& routes) const;

    /** The body limit for a request head: an upload's (the largest file and
        room for the form around it) for `POST {base}/files`, `otherwise` for
        the rest. For `http::server_options::max_body_bytes_for`. */
    AGENTIO_DECL std::size_t body_limit(beast::http::request_header<> const& head, std::size_t otherwise) const;

    /// The user's file `id`, bytes and all; `not_found` (404 in OpenAI's words) for another user's or none.
    AGENTIO_DECL asio::awaitable<boost::system::result<stored_file, api_error>> read(std::string_view owner,
        std::string_view id) const;

    files_options const& options() const noexcept { return options_; }

private:
    asio::awaitable<beast::http::message_generator> upload(http::request req) const;
    asio::awaitable<beast::http::message_generator> list(http::request req) const;
    asio::awaitable<beast::http::message_generator> retrieve(http::request req, std::string id, bool content) const;
    asio::awaitable<beast::http::message_generator> remove(http::request req, std::string id) const;
    std::filesystem::path path_of(std::string_view id) const;

    threads::thread_store& store_;
    files_options options_;
};

/// The OpenAI file object of a record.
AGENTIO_DECL json::object to_json(threads::file_record const& file);

} // namespace agentio::chat_completions

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/chat_completions/impl/files.ipp>
#endif

#endif
