//
// agentio/tool/validator.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Validation of the arguments a model sends against a tool's JSON Schema,
// before any conversion. Every problem is reported with the JSON Pointer of
// the offending value and a message the model can act on, so a wrong call
// comes back as an `is_error` tool result instead of an exception.
//
// A schema is compiled once into a tree of nodes; validation walks that tree
// and the instance together. Statically typed tools and tools discovered at
// run time (an MCP client) share this code.
//

#ifndef AGENTIO_TOOL_VALIDATOR_HPP
#define AGENTIO_TOOL_VALIDATOR_HPP

#include <agentio/config.hpp>
#include <agentio/messages.hpp>

#include <boost/json/array.hpp>
#include <boost/json/value.hpp>
#include <boost/system/result.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentio {

namespace json = boost::json;

/// What to do with object keys the schema does not declare.
enum class unknown_keys
{
    reject, ///< an error naming the key and the keys allowed (default)
    ignore  ///< accepted and dropped by the conversion
};

/// How arguments are validated.
struct validation_options
{
    /// Keys not in `properties` where the schema says `additionalProperties: false`.
    unknown_keys unknown = unknown_keys::reject;

    /// Models often send `null` for an argument they mean to leave out. When
    /// true, `null` for a property that is not required and whose schema does
    /// not allow null counts as absent.
    bool null_means_absent = true;

    /// The sentences of the messages: they go to the model, and often on to
    /// the user, so an application gives them in the language of its prompt.
    messages texts = {};

    /// Errors reported at most; the rest are counted in a final line.
    std::size_t max_errors = 20;

    /// Subschema checks at most for one instance. References let a small
    /// schema describe exponential work (alternatives of alternatives of the
    /// same definition); beyond this the instance is refused as too complex
    /// to check, rather than the caller's thread being held.
    std::size_t max_steps = 1'000'000;
};

/// One problem: where (a JSON Pointer, RFC 6901; empty for the root) and what.
struct validation_error
{
    std::string pointer;
    std::string message;

    friend bool operator==(validation_error const&, validation_error const&) = default;
};

/// The outcome of a validation: the problems found, and how many more there
/// were beyond `validation_options::max_errors`.
struct validation_report
{
    std::vector<validation_error> errors;
    std::size_t omitted = 0;

    /// True when the instance is valid.
    bool ok() const noexcept { return errors.empty(); }
};

/** A JSON Schema compiled for validation.

    Supports the keywords of JSON Schema 2020-12 that tool schemas use:
    `type` (a name or a list), `properties`, `required`,
    `additionalProperties` (boolean or schema), `items`, `minItems`,
    `maxItems`, `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`,
    `minLength`, `maxLength` (in code points), `minProperties`,
    `maxProperties`, `enum`, `const`, `anyOf`, `oneOf`, `allOf`, `not`,
    `if`/`then`/`else`, and boolean schemas; `$ref` within the document
    (`#`, `#/$defs/name` or any JSON Pointer, `#anchor` for an `$anchor`,
    also after the root's `$id`), recursive schemas included. Annotations
    (`description`, `default`, `examples`, `title`, `format`, `$schema`) are
    ignored, and so are the assertions `pattern`, `multipleOf`,
    `uniqueItems`, `prefixItems`, `contains`, `patternProperties`,
    `propertyNames`, `dependent*` and `unevaluated*` where that only loosens
    the answer. A schema does not compile where partial validation would
    accept what it forbids or refuse what it allows: references needing
    more (another document, `$dynamicRef`, `$recursiveRef`, a reference into
    an embedded `$id`), a reference loop that never goes into the value, an
    unchecked assertion under `not`, `if` or `oneOf`. Numbers compare by
    value (`0` equals `0.0`). A walk cut short (256 nested checks, or
    `validation_options::max_steps`) refuses the value.
*/
class schema_validator
{
public:
    /** Compiles a schema.

        @return the validator, or a message naming the unsupported or
        malformed part (with its JSON Pointer).
    */
    static boost::system::result<schema_validator, std::string> compile(json::value const& schema);

    /** Validates an instance.

        @return the problems found, at most `options.max_errors` of them,
        and the count of the others.
    */
    validation_report validate(json::value const& instance, validation_options const& options = {}) const;

    // Declared here, defined where `node` is complete (it is not in the
    // header when the library is compiled separately).
    schema_validator(schema_validator const&);
    schema_validator(schema_validator&&) noexcept;
    schema_validator& operator=(schema_validator const&);
    schema_validator& operator=(schema_validator&&) noexcept;
    ~schema_validator();

private:
    struct node;
    class compiler;
    class walker;

    schema_validator() = default;

    std::vector<node> nodes_;
};

/** Formats a report one error per line as `pointer: message`, the root
    named by `texts.root`, and a last line counting omitted errors.
*/
std::string format_validation_errors(validation_report const& report, messages const& texts = {});

} // namespace agentio

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/tool/impl/validator.ipp>
#endif

#endif
