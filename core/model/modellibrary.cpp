// SPDX-License-Identifier: MIT
// The built-in model library and the user's model files (docs/models.md).
#include "core/error.h"
#include "core/model/modelconfig.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

namespace flint::core::model {
namespace {

std::vector<TransformerConfig> makeLibrary()
{
    std::vector<TransformerConfig> models;
    {
        // Brown et al. 2020, "Language Models are Few-Shot Learners", Table 2.1 (GPT-3 175B:
        // n_layers 96, d_model 12,288, n_heads 96, d_head 128, n_ctx 2,048) and Section 2.1
        // (d_ff = 4 d_model; the GPT-2 architecture: learned positions, embeddings tied with the
        // output layer); vocabulary 50,257 (the GPT-2 byte-pair encoding, Radford et al. 2019).
        TransformerConfig m;
        m.name = "gpt3-175b";
        m.title = "GPT-3 175B";
        m.source = "Brown et al. 2020, Language Models are Few-Shot Learners, Table 2.1 and Sec. 2.1";
        m.layers = 96;
        m.hidden = 12288;
        m.heads = 96;
        m.kvHeads = 96;
        m.headDim = 128;
        m.ffn = 4 * 12288;
        m.vocab = 50257;
        m.seqLen = 2048;
        m.tiedEmbeddings = true;
        m.learnedPositions = true;
        models.push_back(m);
    }
    // Llama Team 2024, "The Llama 3 Herd of Models", Table 3 (layers, model dimension, FFN
    // dimension, attention heads, key/value heads; vocabulary 128,256) and Section 3.4.1
    // (pre-training sequences of 8,192 tokens). SwiGLU feed-forward, rotary positions, untied
    // embeddings (Meta's config.json: tie_word_embeddings false).
    const auto llama = [&models](std::string name, std::string title, std::int64_t layers, std::int64_t hidden,
                                 std::int64_t ffn, std::int64_t heads) {
        TransformerConfig m;
        m.name = std::move(name);
        m.title = std::move(title);
        m.source = "Llama Team 2024, The Llama 3 Herd of Models, Table 3 and Sec. 3.4.1";
        m.layers = layers;
        m.hidden = hidden;
        m.heads = heads;
        m.kvHeads = 8;
        m.headDim = 128;
        m.ffn = ffn;
        m.vocab = 128256;
        m.seqLen = 8192;
        m.gatedMlp = true;
        models.push_back(m);
    };
    llama("llama3-8b", "Llama 3 8B", 32, 4096, 14336, 32);
    llama("llama3-70b", "Llama 3 70B", 80, 8192, 28672, 64);
    llama("llama3-405b", "Llama 3 405B", 126, 16384, 53248, 128);
    {
        // Jiang et al. 2024, "Mixtral of Experts", Table 1: dim 4,096, n_layers 32, head_dim 128,
        // hidden_dim 14,336, n_heads 32, n_kv_heads 8, context_len 32,768, vocab_size 32,000,
        // num_experts 8, top_k_experts 2. Every layer is a mixture of experts (SwiGLU experts).
        // The sequence is the published context length; `--seq-len` studies shorter ones.
        TransformerConfig m;
        m.name = "mixtral-8x7b";
        m.title = "Mixtral 8x7B";
        m.source = "Jiang et al. 2024, Mixtral of Experts, Table 1";
        m.layers = 32;
        m.hidden = 4096;
        m.heads = 32;
        m.kvHeads = 8;
        m.headDim = 128;
        m.ffn = 14336;
        m.vocab = 32000;
        m.seqLen = 32768;
        m.gatedMlp = true;
        m.experts = 8;
        m.topK = 2;
        m.expertFfn = 14336;
        models.push_back(m);
    }
    {
        // DeepSeek-AI 2024, "DeepSeek-V3 Technical Report", Sec. 4.2 (hyper-parameters): 61 layers,
        // hidden 7,168, 128 attention heads, the first three layers dense (FFN 18,432 in the released
        // config.json), then 1 shared and 256 routed experts of inner size 2,048 with 8 activated
        // per token; vocabulary 129K (config.json: 129,280); pre-training sequence 4,096. "Style":
        // multi-head latent attention is taken as plain multi-head attention of 128 heads x 128, and
        // multi-token prediction is left out, so attention weighs more than in the real model.
        TransformerConfig m;
        m.name = "deepseek-v3";
        m.title = "DeepSeek-V3-style MoE";
        m.source = "DeepSeek-AI 2024, DeepSeek-V3 Technical Report, Sec. 4.2; MLA taken as MHA";
        m.layers = 61;
        m.hidden = 7168;
        m.heads = 128;
        m.kvHeads = 128;
        m.headDim = 128;
        m.ffn = 18432;
        m.vocab = 129280;
        m.seqLen = 4096;
        m.gatedMlp = true;
        m.experts = 256;
        m.topK = 8;
        m.expertFfn = 2048;
        m.sharedExperts = 1;
        m.denseLayers = 3;
        models.push_back(m);
    }
    return models;
}

/// Model names also match without dots ("llama3.1-8b" and "llama31-8b").
std::string normalised(std::string_view text)
{
    return nameKey(text, "-_ .");
}

std::string_view trim(std::string_view text)
{
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
        text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
        text.remove_suffix(1);
    return text;
}

} // namespace

double TransformerConfig::layerParameters(std::int64_t layer) const
{
    const double h = static_cast<double>(hidden);
    const double d = static_cast<double>(headDimension());
    const double attention = h * static_cast<double>(heads) * d * 2 + h * static_cast<double>(kvHeads) * d * 2;
    const double matrices = gatedMlp ? 3.0 : 2.0;
    const double norms = 2 * h;
    if (!isMoeLayer(layer))
        return attention + matrices * h * static_cast<double>(ffn) + norms;
    const double expert = matrices * h * static_cast<double>(expertFfn);
    const double router = h * static_cast<double>(experts);
    return attention + static_cast<double>(experts + sharedExperts) * expert + router + norms;
}

double TransformerConfig::embeddingParameters() const
{
    const double h = static_cast<double>(hidden);
    const double table = static_cast<double>(vocab) * h;
    return table + (tiedEmbeddings ? 0.0 : table) + (learnedPositions ? static_cast<double>(seqLen) * h : 0.0) + h;
}

double TransformerConfig::parameters() const
{
    double total = embeddingParameters();
    for (std::int64_t l = 0; l < layers; ++l)
        total += layerParameters(l);
    return total;
}

double TransformerConfig::activeParameters() const
{
    double total = parameters();
    if (!isMoe())
        return total;
    const double expert = (gatedMlp ? 3.0 : 2.0) * static_cast<double>(hidden) * static_cast<double>(expertFfn);
    const double idle = static_cast<double>(experts - topK) * expert;
    return total - idle * static_cast<double>(layers - denseLayers);
}

std::string TransformerConfig::validate(std::string* key) const
{
    const auto about = [key](const char* field, std::string problem) {
        if (key)
            *key = field;
        return problem;
    };
    const auto text = [](std::int64_t value) { return std::to_string(value); };
    // Name the key that is wrong, as the model file spells it.
    for (const auto& [field, value] :
         {std::pair{"layers", layers}, std::pair{"hidden", hidden}, std::pair{"heads", heads},
          std::pair{"vocab", vocab}, std::pair{"seq_len", seqLen}})
        if (value <= 0)
            return about(field, std::string(field) + " must be positive, not " + text(value));
    // Upper bounds far above any published model keep every size inside 64-bit arithmetic and the
    // step inside memory (docs/models.md).
    constexpr std::int64_t k16 = std::int64_t{1} << 16, k20 = std::int64_t{1} << 20, k24 = std::int64_t{1} << 24;
    for (const auto& [field, value, most, bound] :
         {std::tuple{"layers", layers, std::int64_t{10'000}, "10,000"}, std::tuple{"hidden", hidden, k20, "2^20"},
          std::tuple{"ffn", ffn, k24, "2^24"}, std::tuple{"expert_ffn", expertFfn, k24, "2^24"},
          std::tuple{"head_dim", headDim, k16, "2^16"}, std::tuple{"heads", heads, k16, "65,536"},
          std::tuple{"experts", experts, k16, "65,536"}, std::tuple{"shared_experts", sharedExperts, k16, "65,536"},
          std::tuple{"vocab", vocab, k24, "2^24"}, std::tuple{"seq_len", seqLen, std::int64_t{1} << 25, "2^25"}})
        if (value > most)
            return about(field, std::string(field) + " must be at most " + bound + " (" + text(value) + " given)");
    if (kvHeads <= 0 || heads % kvHeads != 0)
        return about("kv_heads", "kv_heads (" + text(kvHeads) + ") must divide heads (" + text(heads) + ")");
    if (headDim <= 0 && hidden % heads != 0)
        return about("heads",
                     "heads (" + text(heads) + ") must divide hidden (" + text(hidden) + ") unless head_dim is given");
    if (denseLayers < 0 || denseLayers > layers)
        return about("dense_layers",
                     "dense_layers (" + text(denseLayers) + ") must be between 0 and layers (" + text(layers) + ")");
    const bool anyDense = !isMoe() || denseLayers > 0;
    if (anyDense && ffn <= 0)
        return about("ffn", "ffn (the MLP's inner size) must be positive: a model with dense layers needs it "
                            "(GPT-style: 4 x hidden = " +
                                text(4 * hidden) + ")");
    if (isMoe()) {
        if (topK <= 0 || topK > experts)
            return about("top_k", "top_k (" + text(topK) + ") must be between 1 and experts (" + text(experts) + ")");
        if (expertFfn <= 0)
            return about("expert_ffn", "a mixture of experts needs expert_ffn > 0");
        if (sharedExperts < 0)
            return about("shared_experts", "shared_experts must not be negative");
    } else if (topK != 0 || expertFfn != 0 || sharedExperts != 0) {
        return about(topK != 0        ? "top_k"
                     : expertFfn != 0 ? "expert_ffn"
                                      : "shared_experts",
                     "top_k, expert_ffn and shared_experts need experts > 0");
    }
    return {};
}

const std::vector<TransformerConfig>& builtinModels()
{
    static const std::vector<TransformerConfig> models = makeLibrary();
    return models;
}

const TransformerConfig* findModel(std::string_view name)
{
    const std::string key = normalised(name);
    for (const TransformerConfig& model : builtinModels())
        if (normalised(model.name) == key || normalised(model.title) == key)
            return &model;
    return nullptr;
}

bool looksLikeModelFile(std::string_view text)
{
    // Only complete lines: `text` may be the first 4 KiB of a file.
    if (const std::size_t last = text.rfind('\n'); last != std::string_view::npos && last + 1 < text.size())
        text = text.substr(0, last + 1);
    bool sized = false;
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        std::string_view line = text.substr(at, end - at);
        at = end + 1;
        if (const std::size_t hash = line.find('#'); hash != std::string_view::npos)
            line = line.substr(0, hash);
        const std::size_t first = line.find_first_not_of(" \t\r");
        if (first == std::string_view::npos)
            continue;
        line = line.substr(first);
        std::size_t key = 0;
        while (key < line.size() && (std::islower(static_cast<unsigned char>(line[key])) || line[key] == '_'))
            ++key;
        const std::size_t equals = line.find_first_not_of(" \t", key);
        if (key == 0 || equals == std::string_view::npos || line[equals] != '=')
            return false; // a line that is no `key = value`
        const std::string_view name = line.substr(0, key);
        sized = sized || name == "layers" || name == "hidden";
    }
    return sized;
}

namespace {

/// `text` with bytes outside printable ASCII as \xNN, for messages about a file that may be binary.
std::string printable(std::string_view text)
{
    std::string out;
    for (const unsigned char c : text.substr(0, 80)) {
        if (c >= 0x20 && c < 0x7f) {
            out += static_cast<char>(c);
        } else {
            static constexpr char digits[] = "0123456789abcdef";
            out += "\\x";
            out += digits[c >> 4];
            out += digits[c & 15];
        }
    }
    return text.size() > 80 ? out + "..." : out;
}

} // namespace

TransformerConfig parseModelText(std::string_view text, const std::string& fileName)
{
    TransformerConfig model;
    model.name = std::filesystem::path(fileName).stem().string();
    model.title = model.name;
    model.source = fileName;
    using Setter = void (*)(TransformerConfig&, std::int64_t);
    static const std::map<std::string, Setter, std::less<>> integers{
        {"layers", [](TransformerConfig& m, std::int64_t v) { m.layers = v; }},
        {"hidden", [](TransformerConfig& m, std::int64_t v) { m.hidden = v; }},
        {"heads", [](TransformerConfig& m, std::int64_t v) { m.heads = v; }},
        {"kv_heads", [](TransformerConfig& m, std::int64_t v) { m.kvHeads = v; }},
        {"head_dim", [](TransformerConfig& m, std::int64_t v) { m.headDim = v; }},
        {"ffn", [](TransformerConfig& m, std::int64_t v) { m.ffn = v; }},
        {"vocab", [](TransformerConfig& m, std::int64_t v) { m.vocab = v; }},
        {"seq_len", [](TransformerConfig& m, std::int64_t v) { m.seqLen = v; }},
        {"experts", [](TransformerConfig& m, std::int64_t v) { m.experts = v; }},
        {"top_k", [](TransformerConfig& m, std::int64_t v) { m.topK = v; }},
        {"expert_ffn", [](TransformerConfig& m, std::int64_t v) { m.expertFfn = v; }},
        {"shared_experts", [](TransformerConfig& m, std::int64_t v) { m.sharedExperts = v; }},
        {"dense_layers", [](TransformerConfig& m, std::int64_t v) { m.denseLayers = v; }},
    };
    using Flag = void (*)(TransformerConfig&, bool);
    static const std::map<std::string, Flag, std::less<>> flags{
        {"gated_mlp", [](TransformerConfig& m, bool v) { m.gatedMlp = v; }},
        {"tied_embeddings", [](TransformerConfig& m, bool v) { m.tiedEmbeddings = v; }},
        {"learned_positions", [](TransformerConfig& m, bool v) { m.learnedPositions = v; }},
    };
    const auto fail = [&fileName](int line, const std::string& reason) -> void {
        throw InputError(fileName, std::nullopt, line > 0 ? std::optional<int>(line) : std::nullopt, reason);
    };
    std::map<std::string, int, std::less<>> seen;
    int lineNumber = 0;
    std::size_t at = 0;
    while (at <= text.size()) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        std::string_view line = text.substr(at, end - at);
        at = end + 1;
        ++lineNumber;
        if (const std::size_t hash = line.find('#'); hash != std::string_view::npos)
            line = line.substr(0, hash);
        line = trim(line);
        if (line.empty())
            continue;
        const std::size_t equals = line.find('=');
        if (equals == std::string_view::npos) {
            fail(lineNumber, "expected 'key = value', found '" + printable(line) + "'");
        }
        const std::string key(trim(line.substr(0, equals)));
        const std::string_view value = trim(line.substr(equals + 1));
        if (value.empty())
            fail(lineNumber, "'" + key + "' has no value");
        if (const auto [it, inserted] = seen.emplace(key, lineNumber); !inserted)
            fail(lineNumber, "'" + key + "' is given twice (first on line " + std::to_string(it->second) + ")");
        if (key == "name" || key == "title" || key == "source") {
            std::string v(value);
            if (v.size() >= 2 && v.front() == '"' && v.back() == '"')
                v = v.substr(1, v.size() - 2);
            (key == "name" ? model.name : key == "title" ? model.title : model.source) = v;
        } else if (const auto i = integers.find(key); i != integers.end()) {
            std::int64_t number = 0;
            const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), number);
            if (ec == std::errc::result_out_of_range)
                fail(lineNumber, "'" + key + "' is far too large (" + std::string(value) +
                                     "): sizes are bounded far below 2^63 (docs/models.md)");
            if (ec != std::errc() || ptr != value.data() + value.size())
                fail(lineNumber, "'" + key + "' must be an integer, found '" + std::string(value) + "'");
            if (number < 0)
                fail(lineNumber, "'" + key + "' must not be negative, found " + std::string(value));
            i->second(model, number);
        } else if (key == "attention_dropout") {
            double probability = -1;
            const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), probability);
            if (ec != std::errc() || ptr != value.data() + value.size() || !(probability >= 0 && probability < 1))
                fail(lineNumber,
                     "'attention_dropout' must be a probability from 0 to below 1, found '" + std::string(value) + "'");
            model.attentionDropout = probability;
        } else if (const auto f = flags.find(key); f != flags.end()) {
            if (value != "true" && value != "false")
                fail(lineNumber, "'" + key + "' must be true or false, found '" + std::string(value) + "'");
            f->second(model, value == "true");
        } else {
            std::string known = "name, title, source, attention_dropout";
            for (const auto& [k, setter] : integers)
                known += ", " + k;
            for (const auto& [k, setter] : flags)
                known += ", " + k;
            fail(lineNumber, "unknown key '" + key + "' (known: " + known + ")");
        }
    }
    for (const char* required : {"layers", "hidden", "heads", "vocab", "seq_len"})
        if (!seen.count(required))
            fail(0, std::string("missing required key '") + required + "'");
    if (!seen.count("kv_heads"))
        model.kvHeads = model.heads;
    std::string problemKey;
    if (const std::string problem = model.validate(&problemKey); !problem.empty()) {
        const auto line = seen.find(problemKey);
        fail(line != seen.end() ? line->second : 0, problem);
    }
    return model;
}

TransformerConfig readModelFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(path, "cannot open the model file");
    // A model file is a few hundred bytes; reading stops past 1 MiB (a device such as /dev/zero, or
    // the wrong file, would otherwise be read without end).
    constexpr std::size_t kMaxModelFile = 1 << 20;
    std::string text(kMaxModelFile + 1, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxModelFile)
        throw InputError(path, "a model file is a few lines of 'key = value'; this one is larger than 1 MiB");
    return parseModelText(text, path);
}

} // namespace flint::core::model
