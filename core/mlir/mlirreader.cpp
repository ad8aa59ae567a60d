// SPDX-License-Identifier: MIT
#include "core/mlir/mlirreader.h"

#include "core/fileio.h"
#include "core/mlir/moduleparser.h"
#include "core/mlir/readerdialects.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/ErrorOr.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>
#include <mlir/AsmParser/AsmParser.h>
#include <mlir/IR/BuiltinOps.h>
#include <mlir/IR/Diagnostics.h>
#include <mlir/IR/DialectRegistry.h>
#include <mlir/IR/Location.h>
#include <mlir/IR/MLIRContext.h>
#include <mlir/IR/OwningOpRef.h>
#include <mlir/InitAllDialects.h>
#include <mlir/InitAllExtensions.h>
#include <mlir/Parser/Parser.h>

namespace flint::frontend {

namespace {

std::string formatWhat(const MlirError& error)
{
    std::string what = error.file;
    if (error.line > 0) {
        what += ':' + std::to_string(error.line) + ':' + std::to_string(error.column);
    }
    what += ": " + error.message;
    return what;
}

// MLIR reports a generic-form operation of an unregistered dialect as "operation being parsed with
// an unregistered dialect. If this is intended, please use -allow-unregistered-dialect ...", which
// names neither the operation nor the dialect and points at the token after the quoted operation
// name. Recover the name from the source line so that the message says which dialect is missing and
// the column points at the operation.
struct QuotedOperationName {
    std::string name;
    int column = 0; // 1-based column of the opening quote
};

std::optional<QuotedOperationName> unregisteredOperationName(std::string_view source, int line, int column)
{
    if (line <= 0 || column <= 1) {
        return std::nullopt;
    }
    std::size_t lineStart = 0;
    for (int current = 1; current < line; ++current) {
        lineStart = source.find('\n', lineStart);
        if (lineStart == std::string_view::npos) {
            return std::nullopt;
        }
        ++lineStart;
    }
    const std::size_t lineEnd = std::min(source.find('\n', lineStart), source.size());
    const std::string_view lineText = source.substr(lineStart, lineEnd - lineStart);
    std::size_t end = std::min(static_cast<std::size_t>(column - 1), lineText.size());
    while (end > 0 && (lineText[end - 1] == ' ' || lineText[end - 1] == '\t')) {
        --end;
    }
    if (end < 2 || lineText[end - 1] != '"') {
        return std::nullopt;
    }
    const std::size_t open = lineText.rfind('"', end - 2);
    if (open == std::string_view::npos) {
        return std::nullopt;
    }
    return QuotedOperationName{std::string(lineText.substr(open + 1, end - 2 - open)), static_cast<int>(open) + 1};
}

// Records the first error MLIR emits. Installed after the SourceMgrDiagnosticHandler, so it runs
// first; it returns failure so that the diagnostic also reaches the SourceMgr handler, which renders
// it to text. It must not throw: it is called from inside MLIR, which is built without exceptions.
class FirstErrorRecorder {
public:
    explicit FirstErrorRecorder(mlir::MLIRContext* context)
        : m_handler(context, [this](mlir::Diagnostic& diagnostic) { return record(diagnostic); })
    {}

    [[nodiscard]] const std::optional<MlirError>& firstError() const { return m_firstError; }

private:
    mlir::LogicalResult record(mlir::Diagnostic& diagnostic)
    {
        if (diagnostic.getSeverity() == mlir::DiagnosticSeverity::Error && !m_firstError) {
            MlirError error;
            if (auto position = diagnostic.getLocation()->findInstanceOf<mlir::FileLineColLoc>()) {
                error.file = position.getFilename().str();
                error.line = static_cast<int>(position.getLine());
                error.column = static_cast<int>(position.getColumn());
            }
            error.message = diagnostic.str();
            // Some MLIR messages end in a space ("... for custom op 'sdy.mesh' ").
            while (!error.message.empty() && error.message.back() == ' ') {
                error.message.pop_back();
            }
            m_firstError = std::move(error);
        }
        return mlir::failure();
    }

    mlir::ScopedDiagnosticHandler m_handler;
    std::optional<MlirError> m_firstError;
};

MlirSummary countOperations(mlir::Operation* root)
{
    std::map<std::string, std::uint64_t, std::less<>> counts;
    std::set<std::string, std::less<>> dialects;
    MlirSummary summary;
    root->walk([&](mlir::Operation* operation) {
        const mlir::OperationName name = operation->getName();
        const llvm::StringRef fullName = name.getStringRef();
        auto found = counts.find(std::string_view(fullName.data(), fullName.size()));
        if (found == counts.end()) {
            found = counts.emplace(fullName.str(), 0).first;
        }
        ++found->second;
        const llvm::StringRef dialect = name.getDialectNamespace();
        if (dialects.find(std::string_view(dialect.data(), dialect.size())) == dialects.end()) {
            dialects.insert(dialect.str());
        }
        ++summary.totalOperations;
    });
    summary.operations.reserve(counts.size());
    for (auto& [name, count] : counts) {
        summary.operations.push_back(OperationCount{name, count});
    }
    summary.dialects.assign(dialects.begin(), dialects.end());
    return summary;
}

} // namespace

namespace detail {

/// MLIR's parser recurses into nested attributes and types: a module nesting deeper than
/// The 1-based line and column of byte `offset` of `source`.
std::pair<int, int> lineAndColumn(std::string_view source, std::size_t offset)
{
    const std::string_view before = source.substr(0, offset);
    const auto lineStart = before.rfind('\n');
    const auto column = offset - (lineStart == std::string_view::npos ? 0 : lineStart + 1);
    return {1 + static_cast<int>(std::count(before.begin(), before.end(), '\n')), static_cast<int>(column) + 1};
}

/// core::kMaxNesting brackets is refused first, with its line and column.
void refuseDeepNesting(std::string_view source, const std::string& bufferName)
{
    const auto at = core::excessiveNesting(source, core::kMaxNesting, true);
    if (!at)
        return;
    const auto [line, column] = lineAndColumn(source, *at);
    throw MlirParseError(MlirError{bufferName, line, column,
                                   "brackets nest deeper than " + std::to_string(core::kMaxNesting) +
                                       " levels here; refused before parsing (no real input nests so deep)"},
                         {});
}

/// MLIR 19's parser binds a forward reference to a definition of the same name inside a nested
/// region (even an isolated one), and frees that definition while it cleans up after a later
/// error: the op that held the reference then writes into freed memory (heap corruption, or a
/// SEGV when the holder is the op being parsed, as in `%0 = while(%i = %c0) ... { %c0 = ... }`).
/// Such input is never valid, since a value defined in a region is not visible outside it; it is
/// refused here, lexically, before MLIR sees it. Braces delimit regions (the braces of attribute
/// dictionaries hold no SSA names). `%name` defines a value when a `=` follows it (results, the
/// pretty while's `%iterArg = %init`), when a colon follows without a blank (arguments
/// `%arg0: T`), or when it starts a statement's result list `%a, %b =`; otherwise it is a use.
/// Linear in the input: definitions and pending uses are stacks unwound as regions close.
void refuseOuterUseOfNestedDefinition(std::string_view source, const std::string& bufferName)
{
    struct Entry {
        std::string_view name;
        std::size_t depth;
        std::size_t offset;
    };
    std::vector<Entry> definitions;                            // innermost last
    std::unordered_map<std::string_view, std::size_t> visible; // name -> definitions in open regions
    std::vector<Entry> uses;                                   // uses before any visible definition
    std::unordered_map<std::string_view, std::size_t> pending; // name -> index in `uses`
    std::size_t depth = 0;

    const auto isNameChar = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.' || c == '-';
    };
    const auto skipBlanks = [&](std::size_t at) {
        while (at < source.size() && (source[at] == ' ' || source[at] == '\t'))
            ++at;
        return at;
    };
    // The end of the name at `at` (just past '%'), and past a result group `:N` when one follows.
    const auto nameEnd = [&](std::size_t at) {
        while (at < source.size() && isNameChar(source[at]))
            ++at;
        return at;
    };
    const auto define = [&](std::string_view name, std::size_t offset) {
        if (const auto found = pending.find(name); found != pending.end()) {
            const Entry use = uses[found->second];
            if (use.depth < depth) {
                const auto [line, column] = lineAndColumn(source, offset);
                const auto [useLine, useColumn] = lineAndColumn(source, use.offset);
                throw MlirParseError(MlirError{bufferName, line, column,
                                               "%" + std::string(name) +
                                                   " is defined here inside a nested region, but line " +
                                                   std::to_string(useLine) + " column " + std::to_string(useColumn) +
                                                   " uses it outside that region before any definition; a value "
                                                   "defined in a region is not visible outside it"},
                                     {});
            }
            pending.erase(found);
        }
        definitions.push_back(Entry{name, depth, offset});
        ++visible[name];
    };
    const auto use = [&](std::string_view name, std::size_t offset) {
        if (visible.count(name) == 0 && pending.count(name) == 0) {
            pending.emplace(name, uses.size());
            uses.push_back(Entry{name, depth, offset});
        }
    };

    for (std::size_t i = 0; i < source.size(); ++i) {
        const char c = source[i];
        if (const std::size_t skipped = core::skipStringOrComment(source, i); skipped != i) {
            i = skipped;
        } else if (c == '{') {
            ++depth;
        } else if (c == '}') {
            // Definitions of the closing region go out of sight; its uses still pending are MLIR's
            // to report ("use of undeclared SSA value").
            while (!definitions.empty() && definitions.back().depth >= depth) {
                const auto found = visible.find(definitions.back().name);
                if (--found->second == 0)
                    visible.erase(found);
                definitions.pop_back();
            }
            while (!uses.empty() && uses.back().depth >= depth) {
                const auto found = pending.find(uses.back().name);
                if (found != pending.end() && found->second == uses.size() - 1)
                    pending.erase(found);
                uses.pop_back();
            }
            depth = depth > 0 ? depth - 1 : 0;
        } else if (c == '%' && i + 1 < source.size() && isNameChar(source[i + 1])) {
            const std::size_t end = nameEnd(i + 1);
            const std::string_view name = source.substr(i + 1, end - i - 1);
            std::size_t next = end;
            if (next < source.size() && source[next] == ':') { // `%0:2 = ...`: a result group
                std::size_t digits = next + 1;
                while (digits < source.size() && std::isdigit(static_cast<unsigned char>(source[digits])))
                    ++digits;
                if (digits > next + 1)
                    next = digits;
            }
            next = skipBlanks(next);
            const bool equals =
                next < source.size() && source[next] == '=' && (next + 1 >= source.size() || source[next + 1] != '=');
            std::size_t back = i;
            while (back > 0 && (source[back - 1] == ' ' || source[back - 1] == '\t'))
                --back;
            const bool statementStart = back == 0 || source[back - 1] == '\n' || source[back - 1] == '{';
            if (statementStart && next < source.size() && source[next] == ',') {
                // `%a, %b:2, %c = op`: a result list when it ends in `=`.
                std::vector<std::pair<std::string_view, std::size_t>> names{{name, i}};
                std::size_t at = next;
                while (at < source.size() && source[at] == ',') {
                    at = skipBlanks(at + 1);
                    if (at + 1 >= source.size() || source[at] != '%' || !isNameChar(source[at + 1]))
                        break;
                    const std::size_t nameStop = nameEnd(at + 1);
                    names.emplace_back(source.substr(at + 1, nameStop - at - 1), at);
                    at = nameStop;
                    if (at < source.size() && source[at] == ':') {
                        ++at; // a result count: %name:3
                        while (at < source.size() && std::isdigit(static_cast<unsigned char>(source[at])))
                            ++at;
                    }
                    at = skipBlanks(at);
                }
                if (at < source.size() && source[at] == '=' && (at + 1 >= source.size() || source[at + 1] != '=')) {
                    for (const auto& [listed, offset] : names)
                        define(listed, offset);
                    i = at;
                    continue;
                }
            }
            // `%arg0: T` (no blank before the colon, as MLIR prints arguments) defines an argument;
            // `%x : T` is an operand before its type.
            const bool argument =
                end < source.size() && source[end] == ':' &&
                (end + 1 >= source.size() || !std::isdigit(static_cast<unsigned char>(source[end + 1])));
            if (equals || argument)
                define(name, i);
            else
                use(name, i);
            i = end - 1;
        }
    }
}

/// MLIR 20 prints source ranges in locations, `loc("f.py":1001:8 to :54)` or `loc("f.py":3:4 to 5:6)`
/// (FileLineColRange), which MLIR 19's parser rejects ("expected ')' in inline location"); jax.export
/// writes them. The range's end is blanked to spaces, so that the location keeps its start and every
/// other byte its line and column. Returns the text with ranges blanked, or nullopt when it has none.
std::optional<std::string> blankLocationRanges(std::string_view source)
{
    std::optional<std::string> out;
    const auto digitsAt = [&](std::size_t at) {
        std::size_t end = at;
        while (end < source.size() && std::isdigit(static_cast<unsigned char>(source[end])))
            ++end;
        return end;
    };
    for (std::size_t i = 0; i < source.size(); ++i) {
        const std::size_t skipped = core::skipStringOrComment(source, i);
        if (skipped == i)
            continue;
        const bool string = source[i] == '"';
        i = skipped;
        // A location's file name is a string: look right after it for `:L:C to END)`.
        if (!string || i >= source.size())
            continue;
        std::size_t at = i + 1;
        int numbers = 0;
        while (numbers < 2 && at < source.size() && source[at] == ':' && digitsAt(at + 1) > at + 1) {
            at = digitsAt(at + 1);
            ++numbers;
        }
        if (numbers == 0 || source.substr(at, 4) != " to ")
            continue;
        const std::size_t rangeStart = at;
        at += 4;
        // END is `:C`, `L:C` or `L`.
        if (at < source.size() && source[at] == ':') {
            at = digitsAt(at + 1);
        } else {
            const std::size_t line = digitsAt(at);
            if (line == at)
                continue;
            at = line < source.size() && source[line] == ':' ? digitsAt(line + 1) : line;
        }
        if (at >= source.size() || source[at] != ')')
            continue;
        if (!out)
            out.emplace(source);
        std::fill(out->begin() + static_cast<std::ptrdiff_t>(rangeStart),
                  out->begin() + static_cast<std::ptrdiff_t>(at), ' ');
        i = at;
    }
    return out;
}

std::pair<int, int> SourcePositions::of(mlir::Operation* op) const
{
    const mlir::AsmParserState::OperationDefinition* definition = m_state.getOpDef(op);
    if (definition == nullptr || !definition->loc.Start.isValid())
        return {0, 0};
    const auto [line, column] = m_sourceMgr.getLineAndColumn(definition->loc.Start);
    return {static_cast<int>(line), static_cast<int>(column)};
}

void parseModule(std::unique_ptr<llvm::MemoryBuffer> buffer, const MlirReadOptions& options,
                 llvm::function_ref<void(mlir::ModuleOp, const SourcePositions&)> use)
{
    const std::string bufferName = buffer->getBufferIdentifier().str();
    if (const auto blanked = blankLocationRanges(std::string_view(buffer->getBufferStart(), buffer->getBufferSize())))
        buffer = llvm::MemoryBuffer::getMemBufferCopy(*blanked, bufferName);
    const llvm::StringRef text = buffer->getBuffer();
    const std::string_view source(text.data(), text.size());
    refuseDeepNesting(source, bufferName);
    refuseOuterUseOfNestedDefinition(source, bufferName);

    mlir::DialectRegistry registry;
    mlir::registerAllDialects(registry);
    mlir::registerAllExtensions(registry);
    if (options.readerDialects) {
        registerReaderDialects(registry);
    }
    // No thread pool per call: callers already run readers on their own worker threads, and a
    // context with threading enabled would start one thread per core for every file read.
    mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
    context.allowUnregisteredDialects(options.allowUnregistered);

    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());

    std::string diagnostics;
    llvm::raw_string_ostream diagnosticStream(diagnostics);
    std::optional<MlirError> firstError;
    mlir::OwningOpRef<mlir::ModuleOp> module;
    mlir::AsmParserState parserState;
    {
        mlir::SourceMgrDiagnosticHandler renderer(sourceMgr, &context, diagnosticStream);
        FirstErrorRecorder recorder(&context);
        // parseSourceFile<ModuleOp> without the parser state: parse into a block, keep the state of
        // every op's position, then wrap the block's ops in a module as parseSourceFile does.
        mlir::Block block;
        const mlir::ParserConfig config(&context);
        const mlir::Location fileLocation = mlir::FileLineColLoc::get(&context, bufferName, 0, 0);
        if (mlir::succeeded(mlir::parseAsmSourceFile(sourceMgr, &block, config, &parserState)))
            module =
                mlir::detail::constructContainerOpForParserIfNecessary<mlir::ModuleOp>(&block, &context, fileLocation);
        firstError = recorder.firstError();
    }
    diagnosticStream.flush();

    if (module && !firstError) {
        use(*module, SourcePositions(parserState, sourceMgr));
        return;
    }

    MlirError error = firstError.value_or(MlirError{bufferName, 0, 0, "invalid MLIR input"});
    if (error.file.empty()) {
        error.file = bufferName;
    }
    if (llvm::StringRef(error.message).starts_with("operation being parsed with an unregistered dialect")) {
        if (const auto operation = unregisteredOperationName(source, error.line, error.column)) {
            const std::string dialect = operation->name.substr(0, operation->name.find('.'));
            error.column = operation->column;
            error.message = "operation '" + operation->name + "' belongs to dialect '" + dialect +
                            "', which is not registered (upstream MLIR dialects and the stablehlo, mhlo, chlo "
                            "and sdy reader dialects are; generic-form operations of other dialects need "
                            "allowUnregistered)";
        }
    }
    throw MlirParseError(std::move(error), std::move(diagnostics));
}

std::unique_ptr<llvm::MemoryBuffer> openFile(const std::string& path)
{
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
    if (!buffer) {
        throw MlirParseError(MlirError{path, 0, 0, "cannot read file: " + buffer.getError().message()}, {});
    }
    return std::move(*buffer);
}

std::unique_ptr<llvm::MemoryBuffer> copySource(std::string_view source, const std::string& bufferName)
{
    return llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(source.data(), source.size()), bufferName);
}

} // namespace detail

namespace {

MlirSummary summarizeBuffer(std::unique_ptr<llvm::MemoryBuffer> buffer, const MlirReadOptions& options)
{
    MlirSummary summary;
    detail::parseModule(std::move(buffer), options, [&summary](mlir::ModuleOp module, const detail::SourcePositions&) {
        summary = countOperations(module.getOperation());
    });
    return summary;
}

} // namespace

MlirParseError::MlirParseError(MlirError error, std::string diagnostics)
    : std::runtime_error(formatWhat(error))
    , m_error(std::move(error))
    , m_diagnostics(std::move(diagnostics))
{}

MlirSummary summarizeMlirFile(const std::string& path, const MlirReadOptions& options)
{
    return summarizeBuffer(detail::openFile(path), options);
}

MlirSummary summarizeMlirSource(std::string_view source, const std::string& bufferName, const MlirReadOptions& options)
{
    return summarizeBuffer(detail::copySource(source, bufferName), options);
}

} // namespace flint::frontend
