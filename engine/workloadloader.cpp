// SPDX-License-Identifier: MIT
#include "engine/workloadloader.h"

#include "core/chakra.h"
#include "core/fileio.h"
#include "core/hlo/hloparser.h"
#include "core/measured/validation.h"
#include "core/model/modelconfig.h"

#ifdef FLINT_HAVE_MLIR
#include "core/mlir/mlirimport.h"
#include "core/mlir/mlirreader.h"
#endif

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <optional>

namespace flint::core {
namespace {

LoadedWorkload loadMlir(const std::string& path, const LoadOptions& options, const JobControl& control)
{
#ifdef FLINT_HAVE_MLIR
    LoadedWorkload loaded;
    loaded.kind = InputKind::MlirModule;
    frontend::MlirImport imported;
    try {
        frontend::MlirImportOptions mlirOptions;
        mlirOptions.hlo = options.hlo;
        mlirOptions.mesh = options.mesh;
        imported = frontend::importMlirFile(path, mlirOptions, control);
    } catch (const frontend::MlirParseError& error) {
        // The facade's error carries MLIR's column; InputError's text keeps it after the line.
        const auto& where = error.error();
        throw InputError(where.file, std::nullopt, where.line > 0 ? std::optional<int>(where.line) : std::nullopt,
                         (where.line > 0 ? "column " + std::to_string(where.column) + ": " : std::string()) +
                             where.message);
    }
    loaded.workload = std::move(imported.imported.workload);
    loaded.name = std::move(imported.imported.moduleName);
    loaded.partitioning = imported.imported.partitioning;
    if (!imported.partitionedFor.empty())
        loaded.notes.emplace_back(
            FLINT_TRANSLATE_NOOP("Diagnostics", "partitioned by flint for mesh %1 (collectives inserted: %2)"),
            std::vector<std::string>{imported.partitionedFor, std::to_string(imported.insertedCollectives)});
    loaded.warnings = std::move(imported.imported.warnings);
    loaded.replicaCount = imported.imported.replicaCount;
    loaded.numPartitions = imported.imported.numPartitions;
    // One mesh over all ranks in device order names the views' rank groups by its axes.
    if (imported.meshes.size() == 1 && imported.meshes.front().deviceIds.empty()) {
        std::int64_t devices = 1;
        std::vector<std::pair<std::string, std::int64_t>> axes;
        for (const auto& [axis, size] : imported.meshes.front().axes) {
            devices *= std::max<std::int64_t>(1, size);
            if (size > 1)
                axes.emplace_back(axis, size);
        }
        if (devices == static_cast<std::int64_t>(loaded.workload.rankCount()))
            loaded.workload.meshAxes = std::move(axes);
    }
    for (frontend::MeshAxes& mesh : imported.meshes)
        loaded.meshes.push_back(MeshDeclaration{std::move(mesh.name), std::move(mesh.axes)});
    return loaded;
#else
    (void)options;
    (void)control;
    throw InputError(path, "this build has no MLIR frontend (configured with FLINT_BUILD_MLIR=OFF)");
#endif
}

} // namespace

bool looksLikeMlir(std::string_view text)
{
    std::size_t at = 0;
    while (at < text.size()) {
        const char c = text[at];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
            ++at;
            continue;
        }
        if (text.substr(at, 2) != "//")
            break;
        const std::size_t end = text.find('\n', at);
        if (end == std::string_view::npos)
            return false;
        at = end + 1;
    }
    const std::string_view rest = text.substr(std::min(at, text.size()));
    for (std::string_view start : {"module", "func.func", "\"builtin.module\"", "\"func.func\""})
        if (rest.starts_with(start))
            return true;
    // An attribute or type alias ("#map = ...", "!ty = ..."): a name right after the sigil, which a
    // Markdown heading ("# Title") does not have.
    return rest.size() > 1 && (rest[0] == '#' || rest[0] == '!') &&
           (std::isalpha(static_cast<unsigned char>(rest[1])) != 0 || rest[1] == '_');
}

namespace {

/// Chakra traces are binary protobuf (field tags and lengths are control bytes); a file whose start is
/// text of another kind would otherwise be reported as a malformed protobuf. Throws InputError
/// saying what the file looks like instead.
void refuseTextAsChakra(const std::string& path, std::string_view head)
{
    if (head.empty())
        throw InputError(path, "an empty file: nothing to read");
    for (const char c : head) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 && c != '\n' && c != '\r' && c != '\t')
            return; // binary: read it as the Chakra trace it may be
    }
    const std::string extension = std::filesystem::path(path).extension().string();
    std::string_view text = head;
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())) != 0)
        text.remove_prefix(1);
    if (extension == ".yml" || extension == ".yaml" || text.find("npus_count") != std::string_view::npos)
        throw InputError(path, "a network YAML, not a workload: pass it with --cluster FILE (the explorer: "
                               "What-if > System)");
    if (text.starts_with('{') && (text.find("scheduling-policy") != std::string_view::npos ||
                                  text.find("all-reduce-implementation") != std::string_view::npos))
        throw InputError(path, "an ASTRA-sim system JSON, not a workload: pass it with --system FILE");
    if (text.starts_with('{') || text.starts_with('['))
        throw InputError(path, "JSON that is not a profiler trace (no \"traceEvents\" near its start): a PyTorch "
                               "profiler or XLA trace JSON, a Chakra trace, an HLO or MLIR module was expected");
    throw InputError(path, "a text file that is neither an HLO or MLIR module, a profiler trace nor a model file "
                           "('key = value' lines); Chakra traces are binary (.et)");
}

/// The first 4 KiB of `path` when it is a readable regular file; nullopt otherwise.
std::optional<std::string> fileHead(const std::string& path)
{
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        return std::nullopt;
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (!file)
        return std::nullopt;
    std::string head(4096, '\0');
    head.resize(std::fread(head.data(), 1, head.size(), file));
    std::fclose(file);
    return head;
}

} // namespace

namespace {

/// What the loader says of a measured run first: its producer, ranks, step and step time.
Message summaryNote(const measured::MeasuredWorkload& run)
{
    std::vector<std::string> arguments{run.producer, std::to_string(run.ranks.size()),
                                       measured::formatSeconds(run.stepSeconds()), run.stepName};
    const bool one = run.ranks.size() == 1;
    if (run.producer == "recorded times")
        return {one ? FLINT_TRANSLATE_NOOP("Diagnostics", "%1, %2 rank: measured step %3")
                    : FLINT_TRANSLATE_NOOP("Diagnostics", "%1, %2 ranks: measured step %3"),
                std::move(arguments)};
    if (run.step >= 0)
        return {one ? FLINT_TRANSLATE_NOOP("Diagnostics", "%1, %2 rank, %4: measured step %3")
                    : FLINT_TRANSLATE_NOOP("Diagnostics", "%1, %2 ranks, %4: measured step %3"),
                std::move(arguments)};
    return {
        one ? FLINT_TRANSLATE_NOOP("Diagnostics", "%1, %2 rank, no step markers: the whole trace: measured step %3")
            : FLINT_TRANSLATE_NOOP("Diagnostics", "%1, %2 ranks, no step markers: the whole trace: measured step %3"),
        std::move(arguments)};
}

/// Reads the profile at `path` as a measured run, its summary note first.
measured::MeasuredWorkload readProfileRun(const std::string& path, const LoadOptions& options,
                                          const JobControl& control)
{
    measured::MeasuredOptions measuredOptions;
    measuredOptions.step = options.profilerStep;
    measured::MeasuredWorkload run = measured::readMeasuredWorkload(path, measuredOptions, control);
    run.notes.insert(run.notes.begin(), summaryNote(run));
    return run;
}

/// True when the folder `path` holds a profiler trace file (*.json, *.json.gz) and no Chakra rank file.
/// A folder that holds both is one of two runs, and which the user meant cannot be told: an
/// InputError naming one file of each (reading one of them would drop the others without a word).
bool holdsProfiles(const std::string& path)
{
    std::error_code ec;
    std::vector<std::string> candidates;
    std::string chakraFile;
    for (const std::filesystem::directory_entry& entry : std::filesystem::directory_iterator(path, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.ends_with(".et") || name.ends_with(".et.gz"))
            chakraFile = std::min(chakraFile.empty() ? name : chakraFile, name);
        else if (name.ends_with(".json") || name.ends_with(".json.gz"))
            candidates.push_back(entry.path().string());
    }
    std::sort(candidates.begin(), candidates.end());
    // One file that reads like a profile is enough: the reader lists them all (profileFiles).
    for (const std::string& file : candidates) {
        const std::optional<std::string> head = fileHead(file);
        if (head && measured::looksLikeProfile(isGzip(*head) ? gunzipPrefix(*head, 4096) : *head)) {
            if (!chakraFile.empty())
                throw InputError(path, "holds both Chakra rank files (" + chakraFile + ") and profiler traces (" +
                                           std::filesystem::path(file).filename().string() +
                                           "): a folder is read as one run; open a file of either, or move the "
                                           "other files away");
            return true;
        }
    }
    return false;
}

/// The kind of the input at `path` whose first bytes are `head` (nullopt: no regular file).
InputKind kindOf(const std::string& path, const std::optional<std::string>& head)
{
    if (!head) {
        std::error_code ec;
        if (std::filesystem::is_directory(path, ec) && holdsProfiles(path))
            return InputKind::MeasuredProfile;
        return InputKind::ChakraTrace;
    }
    std::string inflated;
    std::string_view text(*head);
    if (isGzip(text)) {
        // A compressed HLO dump or profile; compressed Chakra traces stay traces.
        inflated = gunzipPrefix(text, 4096);
        if (hlo::looksLikeHlo(inflated))
            return InputKind::HloModule;
        if (measured::looksLikeProfile(inflated))
            return InputKind::MeasuredProfile;
        return InputKind::ChakraTrace;
    }
    if (text.starts_with("\xEF\xBB\xBF")) // a UTF-8 byte-order mark, as some editors write
        text.remove_prefix(3);
    if (hlo::looksLikeHlo(text))
        return InputKind::HloModule;
    if (std::filesystem::path(path).extension() == ".mlir" || looksLikeMlir(text))
        return InputKind::MlirModule;
    if (measured::looksLikeProfile(text))
        return InputKind::MeasuredProfile;
    return InputKind::ChakraTrace;
}

} // namespace

InputKind detectInputKind(const std::string& path)
{
    return kindOf(path, fileHead(path));
}

bool isModelFile(const std::string& path)
{
    const std::optional<std::string> head = fileHead(path);
    return head && model::looksLikeModelFile(*head);
}

measured::MeasuredWorkload loadMeasuredRun(const std::string& path, const LoadOptions& options,
                                           const JobControl& control)
{
    const std::optional<std::string> head = fileHead(path); // read once for both checks
    const InputKind kind = kindOf(path, head);
    if (kind == InputKind::MeasuredProfile)
        return readProfileRun(path, options, control);
    if (kind != InputKind::ChakraTrace)
        throw InputError(path, "not a measured run: a profile (PyTorch profiler or XLA trace JSON) or a Chakra "
                               "trace with recorded times was expected");
    if (head && !isGzip(*head))
        refuseTextAsChakra(path, *head);
    Workload workload = readChakraWorkload(path, options.commGroupsPath, control);
    measured::MeasuredWorkload run =
        measured::measuredFromRecorded(std::move(workload), std::filesystem::path(path).filename().string());
    run.notes.insert(run.notes.begin(), summaryNote(run));
    return run;
}

LoadedWorkload loadWorkload(const std::string& path, const LoadOptions& options, const JobControl& control)
{
    const std::optional<std::string> head = fileHead(path); // read once for both checks
    if (head && model::looksLikeModelFile(*head))
        throw InputError(path, "a model file ('key = value' lines), not a workload: 'flint model estimate " + path +
                                   "' compiles it for a strategy; the explorer opens it as a model");
    LoadedWorkload loaded;
    loaded.kind = kindOf(path, head);
    if (loaded.kind == InputKind::HloModule) {
        hlo::HloImportOptions hloOptions = options.hlo;
        if (hloOptions.mesh.empty())
            hloOptions.mesh = options.mesh;
        hlo::HloImport imported = hlo::importHloFile(path, hloOptions, control);
        loaded.partitioning = imported.partitioning;
        if (imported.partitioning == hlo::Partitioning::ByFlint)
            loaded.notes.emplace_back(
                FLINT_TRANSLATE_NOOP("Diagnostics", "not SPMD-partitioned by the compiler: partitioned by flint "
                                                    "for mesh %1 (collectives inserted: %2)"),
                std::vector<std::string>{imported.partitionedFor, std::to_string(imported.insertedCollectives)});
        else if (imported.partitioning == hlo::Partitioning::ByCompiler)
            loaded.notes.emplace_back(FLINT_TRANSLATE_NOOP("Diagnostics",
                                                           "a per-device program (shapes and collectives as written: "
                                                           "partitioned by the compiler or written per device)"),
                                      std::vector<std::string>{});
        loaded.workload = std::move(imported.workload);
        loaded.name = std::move(imported.moduleName);
        loaded.warnings = std::move(imported.warnings);
        loaded.replicaCount = imported.replicaCount;
        loaded.numPartitions = imported.numPartitions;
        return loaded;
    }
    if (loaded.kind == InputKind::MlirModule)
        return loadMlir(path, options, control);
    if (loaded.kind == InputKind::MeasuredProfile) {
        measured::MeasuredWorkload run = readProfileRun(path, options, control);
        loaded.workload = std::move(run.workload);
        loaded.name = std::move(run.name);
        loaded.warnings = std::move(run.warnings);
        loaded.notes = std::move(run.notes);
        loaded.measuredRanks = std::move(run.ranks);
        loaded.profilerStep = run.step;
        loaded.measuredDeviceKind = std::move(run.deviceKind);
        loaded.measuredDeviceName = std::move(run.deviceName);
        return loaded;
    }
    if (head && !isGzip(*head))
        refuseTextAsChakra(path, *head);
    ChakraSharing sharing;
    loaded.workload = readChakraWorkload(path, options.commGroupsPath, control, &sharing);
    loaded.name = std::filesystem::path(path).filename().string();
    if (sharing.rankFiles > 1 && sharing.distinctPrograms < sharing.rankFiles) {
        // Built from parts, each a template of its own: which kinds of sharing were found varies.
        std::vector<Message> how;
        if (sharing.identicalFiles > 0)
            how.emplace_back(FLINT_TRANSLATE_NOOP("Diagnostics", "%1 byte-identical to an earlier rank's"),
                             std::vector<std::string>{std::to_string(sharing.identicalFiles)});
        if (sharing.sameExceptGroupNames > 0)
            how.emplace_back(
                FLINT_TRANSLATE_NOOP("Diagnostics", "%1 equal to an earlier rank's but for process-group names"),
                std::vector<std::string>{std::to_string(sharing.sameExceptGroupNames)});
        if (sharing.sameExceptTiming > 0)
            how.emplace_back(FLINT_TRANSLATE_NOOP("Diagnostics", "%1 the same ops at other recorded times"),
                             std::vector<std::string>{std::to_string(sharing.sameExceptTiming)});
        const std::vector<std::string> counts{std::to_string(sharing.rankFiles),
                                              std::to_string(sharing.distinctPrograms)};
        Message note =
            sharing.distinctPrograms == 1
                ? Message(FLINT_TRANSLATE_NOOP("Diagnostics", "%1 rank files hold %2 distinct program ("), counts)
                : Message(FLINT_TRANSLATE_NOOP("Diagnostics", "%1 rank files hold %2 distinct programs ("), counts);
        for (std::size_t i = 0; i < how.size(); ++i)
            note = note.followedBy(i == 0 ? how[i] : how[i].prefixed(", "));
        note = note.followedBy(
            Message(FLINT_TRANSLATE_NOOP("Diagnostics", "): each is held once, and ranks shown to behave "
                                                        "alike are simulated once"),
                    {}));
        if (sharing.sameExceptTiming > 0)
            note = note.followedBy(
                Message(FLINT_TRANSLATE_NOOP("Diagnostics", "; a rank with recorded times of its own keeps "
                                                            "them and is simulated with them"),
                        {}));
        loaded.notes.push_back(std::move(note));
    }
    return loaded;
}

} // namespace flint::core
