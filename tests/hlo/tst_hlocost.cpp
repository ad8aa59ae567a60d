// SPDX-License-Identifier: MIT
#include "core/hlo/hlocost.h"
#include "core/hlo/hloparser.h"

#include <limits>

#include <QFileInfo>
#include <QTest>

using namespace flint::core;
using namespace flint::core::hlo;

Q_DECLARE_METATYPE(flint::core::hlo::Module)
Q_DECLARE_METATYPE(flint::core::hlo::InstructionCost)

namespace {

Shape array(DType type, std::vector<std::int64_t> dims, std::vector<std::int64_t> minorToMajor = {})
{
    Shape shape;
    shape.elementType = type;
    shape.dims = std::move(dims);
    shape.minorToMajor = std::move(minorToMajor);
    return shape;
}

Shape f32(std::vector<std::int64_t> dims)
{
    return array(DType::F32, std::move(dims));
}

Shape tuple(std::vector<Shape> elements)
{
    Shape shape;
    shape.isTuple = true;
    shape.tupleElements = std::move(elements);
    return shape;
}

/// Builds modules in code, independent of the parser.
class Builder {
public:
    std::uint32_t computation(const std::string& name)
    {
        Computation c;
        c.name = name;
        m_module.computations.push_back(std::move(c));
        return static_cast<std::uint32_t>(m_module.computations.size() - 1);
    }

    std::uint32_t parameter(std::uint32_t c, Shape shape)
    {
        Computation& comp = m_module.computations[c];
        const auto number = static_cast<std::int64_t>(comp.parameters.size());
        const std::uint32_t index = add(c, "parameter", std::move(shape), {});
        comp.instructions[index].parameterNumber = number;
        comp.parameters.push_back(index);
        return index;
    }

    std::uint32_t add(std::uint32_t c, const std::string& opcode, Shape shape, std::vector<std::uint32_t> operands)
    {
        Computation& comp = m_module.computations[c];
        Instruction instruction;
        instruction.name = opcode + "." + std::to_string(comp.instructions.size());
        instruction.opcode = opcode;
        instruction.shape = std::move(shape);
        instruction.operands = std::move(operands);
        instruction.line = static_cast<int>(100 * c + comp.instructions.size() + 1);
        comp.instructions.push_back(std::move(instruction));
        comp.root = static_cast<std::uint32_t>(comp.instructions.size() - 1);
        return comp.root;
    }

    Instruction& at(std::uint32_t c, std::uint32_t i) { return m_module.computations[c].instructions[i]; }

    /// A scalar computation (a, b) -> a OP b, as reducers are.
    std::uint32_t binaryReducer(const std::string& opcode, DType type = DType::F32)
    {
        const std::uint32_t c = computation(opcode + "_reducer");
        const auto a = parameter(c, array(type, {}));
        const auto b = parameter(c, array(type, {}));
        add(c, opcode, array(opcode == "compare" ? DType::Pred : type, {}), {a, b});
        return c;
    }

    Module take()
    {
        m_module.entry = static_cast<std::uint32_t>(m_module.computations.size() - 1);
        m_module.computations.back().isEntry = true;
        return std::move(m_module);
    }

private:
    Module m_module;
};

/// Indices of the instruction called `name` (the first match over all computations).
std::pair<std::uint32_t, std::uint32_t> locate(const Module& module, std::string_view name)
{
    for (std::uint32_t c = 0; c < module.computations.size(); ++c)
        for (std::uint32_t i = 0; i < module.computations[c].instructions.size(); ++i)
            if (module.computations[c].instructions[i].name == name)
                return {c, i};
    throw std::runtime_error("no instruction " + std::string(name));
}

InstructionCost costOf(const Module& module, std::string_view name)
{
    const auto [c, i] = locate(module, name);
    return CostModel(module).cost(c, i);
}

QString toString(const InstructionCost& cost)
{
    return QStringLiteral("flops=%1 transcendentals=%2 read=%3 written=%4")
        .arg(cost.flops)
        .arg(cost.transcendentals)
        .arg(cost.bytesRead)
        .arg(cost.bytesWritten);
}

#define COMPARE_COST(actual, expected) QCOMPARE(toString(actual), toString(expected))

/// A dot of lhs and rhs with the given dimension numbers; the result shape does not enter the count.
Module dotModule(Shape lhs, Shape rhs, Shape result, DotDimensions dims)
{
    Builder b;
    const auto e = b.computation("main");
    const auto l = b.parameter(e, std::move(lhs));
    const auto r = b.parameter(e, std::move(rhs));
    const auto d = b.add(e, "dot", std::move(result), {l, r});
    b.at(e, d).dot = std::move(dims);
    return b.take();
}

WindowDimension window(std::int64_t size, std::int64_t stride = 1, std::int64_t padLow = 0, std::int64_t padHigh = 0,
                       std::int64_t lhsDilation = 1, std::int64_t rhsDilation = 1)
{
    return {size, stride, padLow, padHigh, lhsDilation, rhsDilation};
}

Module convolutionModule(Shape input, Shape kernel, Shape output, std::string dimLabels,
                         std::vector<WindowDimension> windows, std::int64_t featureGroups = 1,
                         std::int64_t batchGroups = 1)
{
    Builder b;
    const auto e = b.computation("main");
    const auto in = b.parameter(e, std::move(input));
    const auto k = b.parameter(e, std::move(kernel));
    const auto conv = b.add(e, "convolution", std::move(output), {in, k});
    Instruction& instruction = b.at(e, conv);
    instruction.dimLabels = std::move(dimLabels);
    instruction.window = std::move(windows);
    instruction.featureGroupCount = featureGroups;
    instruction.batchGroupCount = batchGroups;
    return b.take();
}

const InstructionCost kFree{};

} // namespace

class TestHloCost : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void dot_data();
    void dot();
    void convolution_data();
    void convolution();
    void elementwise_data();
    void elementwise();
    void freeAndDataMovement_data();
    void freeAndDataMovement();
    void reductions_data();
    void reductions();
    void collectives_data();
    void collectives();
    void spectralAndLinearAlgebra_data();
    void spectralAndLinearAlgebra();
    void fusionReadsOnlyWhatItSlices();
    void fusionUpdatesInPlace_data();
    void fusionUpdatesInPlace();
    void nestedFusionAndTupleRoot();
    void transformerEngineMasks_data();
    void transformerEngineMasks();
    void parsedText_data();
    void parsedText();
    void unknownTargetsAndOpcodesWarnOnce();
    void countersSaturate();
    void sharedSamples_data();
    void sharedSamples();
};

void TestHloCost::dot_data()
{
    QTest::addColumn<Module>("module");
    QTest::addColumn<quint64>("flops");

    // 2 * M * N * K with M=2, N=4, K=3.
    QTest::newRow("matmul_2x3_3x4") << dotModule(f32({2, 3}), f32({3, 4}), f32({2, 4}), {{}, {1}, {}, {0}})
                                    << quint64(48);
    // batch 5: 5 * 48.
    QTest::newRow("batched_5x2x3_5x3x4") << dotModule(f32({5, 2, 3}), f32({5, 3, 4}), f32({5, 2, 4}),
                                                      {{0}, {2}, {0}, {1}})
                                         << quint64(240);
    // lhs [K=3, M=2] contracted on dimension 0.
    QTest::newRow("contracting_dim0") << dotModule(f32({3, 2}), f32({3, 4}), f32({2, 4}), {{}, {0}, {}, {0}})
                                      << quint64(48);
    // lhs [M=2, K=3, B=7], rhs [N=4, B=7, K=3]: batch and contraction in any position.
    QTest::newRow("batch_last_rhs_transposed")
        << dotModule(f32({2, 3, 7}), f32({4, 7, 3}), f32({7, 2, 4}), {{2}, {1}, {1}, {2}})
        << quint64(2 * 7 * 2 * 4 * 3);
    // Two contracting dimensions: K = 3 * 5.
    QTest::newRow("two_contracting_dims")
        << dotModule(f32({2, 3, 5}), f32({3, 5, 4}), f32({2, 4}), {{}, {1, 2}, {}, {0, 1}}) << quint64(2 * 2 * 4 * 15);
    // No contraction: an outer product, one multiply per output element counted as 2 (XLA).
    QTest::newRow("outer_product") << dotModule(f32({3}), f32({4}), f32({3, 4}), {}) << quint64(24);
}

void TestHloCost::dot()
{
    QFETCH(Module, module);
    QFETCH(quint64, flops);
    const CostModel model(module);
    const Computation& entry = module.entryComputation();
    const InstructionCost cost = model.cost(module.entry, entry.root);
    QCOMPARE(cost.flops, flops);
    QCOMPARE(cost.transcendentals, quint64(0));
    const std::uint64_t operands = entry.instructions[0].shape.byteSize() + entry.instructions[1].shape.byteSize();
    QCOMPARE(cost.bytesRead, operands);
    QCOMPARE(cost.bytesWritten, entry.instructions[entry.root].shape.byteSize());
    QVERIFY(model.warnings().empty());
}

void TestHloCost::convolution_data()
{
    QTest::addColumn<Module>("module");
    QTest::addColumn<quint64>("flops");

    // 5x5 input, 3x3 kernel, padding 1: along each axis 5 outputs x 3 taps minus the 2 taps that
    // fall in the padding = 13 valid taps; 2 * Cin(2) * Cout(4) * batch(1) * 13 * 13.
    QTest::newRow("conv2d_same_padding") << convolutionModule(f32({1, 5, 5, 2}), f32({3, 3, 2, 4}), f32({1, 5, 5, 4}),
                                                              "b01f_01io->b01f",
                                                              {window(3, 1, 1, 1), window(3, 1, 1, 1)})
                                         << quint64(2 * 2 * 4 * 1 * 13 * 13);
    // No padding, stride 2: every tap is real: 2 * output elements (2*3*3*8) * 9 taps * Cin 3.
    QTest::newRow("conv2d_valid_stride2") << convolutionModule(f32({2, 7, 7, 3}), f32({3, 3, 3, 8}), f32({2, 3, 3, 8}),
                                                               "b01f_01io->b01f", {window(3, 2), window(3, 2)})
                                          << quint64(2 * (2 * 3 * 3 * 8) * 9 * 3);
    // Depthwise: feature_group_count = 16 leaves 1 input feature per output: 2 * 576 outputs * 9 taps.
    QTest::newRow("depthwise_16_groups") << convolutionModule(f32({1, 8, 8, 16}), f32({3, 3, 1, 16}),
                                                              f32({1, 6, 6, 16}), "b01f_01io->b01f",
                                                              {window(3), window(3)}, 16)
                                         << quint64(2 * (6 * 6 * 16) * 9 * 1);
    // batch_group_count = 2 (a grouped weight gradient): output batch 4/2 = 2, Cout 6, 25 taps,
    // Cin 2: 2 * 12 outputs * 25 * 2.
    QTest::newRow("batch_groups_2") << convolutionModule(f32({4, 5, 5, 2}), f32({5, 5, 2, 6}), f32({2, 1, 1, 6}),
                                                         "b01f_01io->b01f", {window(5), window(5)}, 1, 2)
                                    << quint64(2 * 12 * 25 * 2);
    // Base (lhs) dilation 2 of a 3-element input with padding 2: each real input element meets each
    // of the 3 taps once: 9 taps, not 7 outputs x 3.
    QTest::newRow("lhs_dilation_transposed")
        << convolutionModule(f32({1, 3, 1}), f32({3, 1, 1}), f32({1, 7, 1}), "b0f_0io->b0f", {window(3, 1, 2, 2, 2, 1)})
        << quint64(2 * 9);
    // Window (rhs) dilation 2: a 3-tap kernel spans 5 inputs, 3 valid outputs x 3 taps.
    QTest::newRow("rhs_dilation") << convolutionModule(f32({1, 7, 1}), f32({3, 1, 1}), f32({1, 3, 1}), "b0f_0io->b0f",
                                                       {window(3, 1, 0, 0, 1, 2)})
                                  << quint64(2 * 9);
    // NCHW / OIHW layout labels: same count as b01f with the dimensions elsewhere.
    QTest::newRow("conv2d_nchw_oihw") << convolutionModule(f32({2, 3, 7, 7}), f32({8, 3, 3, 3}), f32({2, 8, 3, 3}),
                                                           "bf01_oi01->bf01", {window(3, 2), window(3, 2)})
                                      << quint64(2 * (2 * 3 * 3 * 8) * 9 * 3);
}

void TestHloCost::convolution()
{
    QFETCH(Module, module);
    QFETCH(quint64, flops);
    const CostModel model(module);
    const InstructionCost cost = model.cost(module.entry, module.entryComputation().root);
    QCOMPARE(cost.flops, flops);
    QCOMPARE(cost.bytesRead, module.entryComputation().instructions[0].shape.byteSize() +
                                 module.entryComputation().instructions[1].shape.byteSize());
    QVERIFY(model.warnings().empty());
}

void TestHloCost::elementwise_data()
{
    QTest::addColumn<QString>("opcode");
    QTest::addColumn<int>("operands");
    QTest::addColumn<int>("type");
    QTest::addColumn<int>("resultType");
    QTest::addColumn<quint64>("flops");
    QTest::addColumn<quint64>("transcendentals");
    QTest::addColumn<quint64>("bytesRead");
    QTest::addColumn<quint64>("bytesWritten");

    const int f = static_cast<int>(DType::F32);
    const int bf = static_cast<int>(DType::BF16);
    const int pred = static_cast<int>(DType::Pred);
    const int s4 = static_cast<int>(DType::S4);
    // Shapes are [2,3]: 6 elements, 24 bytes in f32.
    QTest::newRow("add") << "add" << 2 << f << f << quint64(6) << quint64(0) << quint64(48) << quint64(24);
    QTest::newRow("multiply") << "multiply" << 2 << f << f << quint64(6) << quint64(0) << quint64(48) << quint64(24);
    QTest::newRow("maximum") << "maximum" << 2 << f << f << quint64(6) << quint64(0) << quint64(48) << quint64(24);
    QTest::newRow("negate") << "negate" << 1 << f << f << quint64(6) << quint64(0) << quint64(24) << quint64(24);
    QTest::newRow("compare_to_pred") << "compare" << 2 << f << pred << quint64(6) << quint64(0) << quint64(48)
                                     << quint64(6);
    QTest::newRow("clamp") << "clamp" << 3 << f << f << quint64(6) << quint64(0) << quint64(72) << quint64(24);
    // XLA counts convert as 1 FLOP per element.
    QTest::newRow("convert_f32_bf16") << "convert" << 1 << f << bf << quint64(6) << quint64(0) << quint64(24)
                                      << quint64(12);
    // Transcendentals are counted apart from FLOPs (XLA).
    QTest::newRow("exponential") << "exponential" << 1 << f << f << quint64(0) << quint64(6) << quint64(24)
                                 << quint64(24);
    QTest::newRow("tanh_bf16") << "tanh" << 1 << bf << bf << quint64(0) << quint64(6) << quint64(12) << quint64(12);
    QTest::newRow("rsqrt") << "rsqrt" << 1 << f << f << quint64(0) << quint64(6) << quint64(24) << quint64(24);
    QTest::newRow("power") << "power" << 2 << f << f << quint64(0) << quint64(6) << quint64(48) << quint64(24);
    // s4 is packed two to a byte: 6 elements are 3 bytes.
    QTest::newRow("add_s4_packed") << "add" << 2 << s4 << s4 << quint64(6) << quint64(0) << quint64(6) << quint64(3);
}

void TestHloCost::elementwise()
{
    QFETCH(QString, opcode);
    QFETCH(int, operands);
    QFETCH(int, type);
    QFETCH(int, resultType);
    QFETCH(quint64, flops);
    QFETCH(quint64, transcendentals);
    QFETCH(quint64, bytesRead);
    QFETCH(quint64, bytesWritten);

    Builder b;
    const auto e = b.computation("main");
    std::vector<std::uint32_t> args;
    for (int k = 0; k < operands; ++k)
        args.push_back(b.parameter(e, array(static_cast<DType>(type), {2, 3})));
    b.add(e, opcode.toStdString(), array(static_cast<DType>(resultType), {2, 3}), args);
    const Module module = b.take();
    const CostModel model(module);
    COMPARE_COST(model.cost(module.entry, module.entryComputation().root),
                 (InstructionCost{flops, transcendentals, bytesRead, bytesWritten}));
    QVERIFY(model.warnings().empty());
}

void TestHloCost::freeAndDataMovement_data()
{
    QTest::addColumn<Module>("module");
    QTest::addColumn<InstructionCost>("expected");

    const auto unary = [](const std::string& opcode, Shape in, Shape out, std::vector<std::int64_t> dimensions = {}) {
        Builder b;
        const auto e = b.computation("main");
        const auto p = b.parameter(e, std::move(in));
        const auto op = b.add(e, opcode, std::move(out), {p});
        b.at(e, op).dimensions = std::move(dimensions);
        return b.take();
    };
    const auto nullary = [](const std::string& opcode, Shape out) {
        Builder b;
        b.add(b.computation("main"), opcode, std::move(out), {});
        return b.take();
    };

    QTest::newRow("parameter") << nullary("parameter", f32({1024})) << kFree;
    QTest::newRow("constant") << nullary("constant", f32({1024})) << kFree;
    QTest::newRow("partition-id") << nullary("partition-id", array(DType::U32, {})) << kFree;
    QTest::newRow("replica-id") << nullary("replica-id", array(DType::U32, {})) << kFree;
    QTest::newRow("after-all") << nullary("after-all", array(DType::Token, {})) << kFree;
    QTest::newRow("bitcast") << unary("bitcast", f32({4, 256}), f32({1024})) << kFree;
    QTest::newRow("get-tuple-element") << unary("get-tuple-element", tuple({f32({8}), f32({4})}), f32({8})) << kFree;
    QTest::newRow("tuple") << unary("tuple", f32({8}), tuple({f32({8})})) << kFree;
    QTest::newRow("opt-barrier") << unary("opt-barrier", f32({8}), f32({8})) << kFree;
    QTest::newRow("add-dependency") << unary("add-dependency", f32({8}), f32({8})) << kFree;
    QTest::newRow("domain") << unary("domain", f32({8}), f32({8})) << kFree;
    QTest::newRow("all-reduce-done") << unary("all-reduce-done", f32({8}), f32({8})) << kFree;
    QTest::newRow("async-done") << unary("async-done", f32({8}), f32({8})) << kFree;
    QTest::newRow("while_is_lowered_elsewhere") << unary("while", f32({8}), f32({8})) << kFree;
    QTest::newRow("call_is_inlined") << unary("call", f32({8}), f32({8})) << kFree;
    // Row-major on both sides: a reshape is a relabelling of the same buffer.
    QTest::newRow("reshape_row_major") << unary("reshape", f32({4, 256}), f32({2, 2, 256})) << kFree;
    QTest::newRow("reshape_column_major_copies")
        << unary("reshape", array(DType::F32, {4, 256}, {0, 1}), f32({1024})) << InstructionCost{0, 0, 4096, 4096};
    // [4,256] with layout {0,1} holds the bytes of a row-major [256,4]: transposing is free.
    QTest::newRow("transpose_bitcast") << unary("transpose", array(DType::F32, {4, 256}, {0, 1}),
                                                array(DType::F32, {256, 4}, {1, 0}), {1, 0})
                                       << kFree;
    QTest::newRow("transpose_moves") << unary("transpose", f32({4, 256}), f32({256, 4}), {1, 0})
                                     << InstructionCost{0, 0, 4096, 4096};
    QTest::newRow("copy") << unary("copy", f32({1024}), f32({1024})) << InstructionCost{0, 0, 4096, 4096};
    QTest::newRow("broadcast") << unary("broadcast", f32({4}), f32({256, 4}), {1}) << InstructionCost{0, 0, 16, 4096};
    // A slice reads only what it keeps.
    QTest::newRow("slice") << unary("slice", f32({80, 1024}), f32({1, 1024})) << InstructionCost{0, 0, 4096, 4096};
    QTest::newRow("iota") << nullary("iota", array(DType::S32, {128})) << InstructionCost{0, 0, 0, 512};

    {
        // dynamic-slice of one layer of a stacked [80, 1024] weight: reads the slice and the indices.
        Builder b;
        const auto e = b.computation("main");
        const auto w = b.parameter(e, array(DType::BF16, {80, 1024}));
        const auto i = b.parameter(e, array(DType::S32, {}));
        const auto z = b.add(e, "constant", array(DType::S32, {}), {});
        b.add(e, "dynamic-slice", array(DType::BF16, {1, 1024}), {w, i, z});
        QTest::newRow("dynamic-slice") << b.take() << InstructionCost{0, 0, 2048 + 8, 2048};
    }
    {
        // dynamic-update-slice is in place: the update and indices are read, the update written.
        Builder b;
        const auto e = b.computation("main");
        const auto w = b.parameter(e, array(DType::BF16, {80, 1024}));
        const auto u = b.parameter(e, array(DType::BF16, {1, 1024}));
        const auto i = b.parameter(e, array(DType::S32, {}));
        const auto z = b.add(e, "constant", array(DType::S32, {}), {});
        b.add(e, "dynamic-update-slice", array(DType::BF16, {80, 1024}), {w, u, i, z});
        QTest::newRow("dynamic-update-slice") << b.take() << InstructionCost{0, 0, 2048 + 8, 2048};
    }
    {
        // gather of 16 rows of 64 from a [1000, 64] table: reads the rows and the indices.
        Builder b;
        const auto e = b.computation("main");
        const auto table = b.parameter(e, f32({1000, 64}));
        const auto indices = b.parameter(e, array(DType::S32, {16, 1}));
        b.add(e, "gather", f32({16, 64}), {table, indices});
        QTest::newRow("gather") << b.take() << InstructionCost{0, 0, 4096 + 64, 4096};
    }
}

void TestHloCost::freeAndDataMovement()
{
    QFETCH(Module, module);
    QFETCH(InstructionCost, expected);
    const CostModel model(module);
    COMPARE_COST(model.cost(module.entry, module.entryComputation().root), expected);
    QVERIFY(model.warnings().empty());
}

void TestHloCost::reductions_data()
{
    QTest::addColumn<Module>("module");
    QTest::addColumn<InstructionCost>("expected");

    {
        // 32 inputs into 4 outputs: 28 adds. Reads input and init, writes 4 floats.
        Builder b;
        const auto add = b.binaryReducer("add");
        const auto e = b.computation("main");
        const auto in = b.parameter(e, f32({4, 8}));
        const auto init = b.add(e, "constant", f32({}), {});
        const auto r = b.add(e, "reduce", f32({4}), {in, init});
        b.at(e, r).dimensions = {1};
        b.at(e, r).toApply = add;
        QTest::newRow("reduce_sum_rows") << b.take() << InstructionCost{28, 0, 128 + 4, 16};
    }
    {
        // Variadic argmax: the reducer compares and selects value and index, 3 FLOPs per application.
        Builder b;
        const auto argmax = b.computation("argmax");
        const auto av = b.parameter(argmax, f32({}));
        const auto ai = b.parameter(argmax, array(DType::S32, {}));
        const auto bv = b.parameter(argmax, f32({}));
        const auto bi = b.parameter(argmax, array(DType::S32, {}));
        const auto gt = b.add(argmax, "compare", array(DType::Pred, {}), {av, bv});
        const auto v = b.add(argmax, "select", f32({}), {gt, av, bv});
        const auto i = b.add(argmax, "select", array(DType::S32, {}), {gt, ai, bi});
        b.add(argmax, "tuple", tuple({f32({}), array(DType::S32, {})}), {v, i});
        const auto e = b.computation("main");
        const auto values = b.parameter(e, f32({4, 8}));
        const auto indices = b.parameter(e, array(DType::S32, {4, 8}));
        const auto v0 = b.add(e, "constant", f32({}), {});
        const auto i0 = b.add(e, "constant", array(DType::S32, {}), {});
        const auto r = b.add(e, "reduce", tuple({f32({4}), array(DType::S32, {4})}), {values, indices, v0, i0});
        b.at(e, r).dimensions = {1};
        b.at(e, r).toApply = argmax;
        QTest::newRow("variadic_argmax") << b.take() << InstructionCost{28 * 3, 0, 128 + 128 + 4 + 4, 16 + 16};
    }
    {
        // Window of 3 over 8 elements, stride 1: 6 outputs, 2 adds each (XLA: window - 1).
        Builder b;
        const auto add = b.binaryReducer("add");
        const auto e = b.computation("main");
        const auto in = b.parameter(e, f32({8}));
        const auto init = b.add(e, "constant", f32({}), {});
        const auto r = b.add(e, "reduce-window", f32({6}), {in, init});
        b.at(e, r).window = {window(3)};
        b.at(e, r).toApply = add;
        QTest::newRow("reduce_window_3") << b.take() << InstructionCost{12, 0, 32 + 4, 24};
    }
    {
        // Sort 4 rows of 16: 16 * log2(16) = 64 comparisons per row, 1 FLOP each.
        Builder b;
        const auto less = b.binaryReducer("compare");
        const auto e = b.computation("main");
        const auto keys = b.parameter(e, f32({4, 16}));
        const auto s = b.add(e, "sort", f32({4, 16}), {keys});
        b.at(e, s).dimensions = {1};
        b.at(e, s).toApply = less;
        QTest::newRow("sort_rows") << b.take() << InstructionCost{4 * 64, 0, 256, 256};
    }
    {
        // Scatter-add of 8 update rows of 16 into [100, 16]: 128 adds; reads updates twice
        // (updates and the region they land on) and the indices, writes the region.
        Builder b;
        const auto add = b.binaryReducer("add");
        const auto e = b.computation("main");
        const auto operand = b.parameter(e, f32({100, 16}));
        const auto indices = b.parameter(e, array(DType::S32, {8, 1}));
        const auto updates = b.parameter(e, f32({8, 16}));
        const auto s = b.add(e, "scatter", f32({100, 16}), {operand, indices, updates});
        b.at(e, s).toApply = add;
        QTest::newRow("scatter_add") << b.take() << InstructionCost{128, 0, 512 * 2 + 32, 512};
    }
    {
        // map of a reducer-like computation with one exp: 10 transcendentals and 10 adds.
        Builder b;
        const auto f = b.computation("exp_plus");
        const auto x = b.parameter(f, f32({}));
        const auto ex = b.add(f, "exponential", f32({}), {x});
        b.add(f, "add", f32({}), {ex, x});
        const auto e = b.computation("main");
        const auto in = b.parameter(e, f32({10}));
        const auto m = b.add(e, "map", f32({10}), {in});
        b.at(e, m).toApply = f;
        QTest::newRow("map") << b.take() << InstructionCost{10, 10, 40, 40};
    }
}

void TestHloCost::reductions()
{
    QFETCH(Module, module);
    QFETCH(InstructionCost, expected);
    const CostModel model(module);
    COMPARE_COST(model.cost(module.entry, module.entryComputation().root), expected);
    QVERIFY(model.warnings().empty());
}

void TestHloCost::collectives_data()
{
    QTest::addColumn<Module>("module");
    QTest::addColumn<InstructionCost>("expected");

    const auto collective = [](const std::string& opcode, Shape in, Shape out, bool reducer) {
        Builder b;
        const std::uint32_t add = reducer ? b.binaryReducer("add") : 0;
        const auto e = b.computation("main");
        const auto p = b.parameter(e, std::move(in));
        const auto c = b.add(e, opcode, std::move(out), {p});
        if (reducer)
            b.at(e, c).toApply = add;
        return b.take();
    };
    QTest::newRow("all-reduce") << collective("all-reduce", f32({1024}), f32({1024}), true)
                                << InstructionCost{1024, 0, 4096, 4096};
    QTest::newRow("all-reduce-start") << collective("all-reduce-start", f32({1024}), f32({1024}), true)
                                      << InstructionCost{1024, 0, 4096, 4096};
    QTest::newRow("reduce-scatter_8_ways")
        << collective("reduce-scatter", f32({64}), f32({8}), true) << InstructionCost{64, 0, 256, 32};
    QTest::newRow("all-gather_8_ways") << collective("all-gather", f32({8}), f32({64}), false)
                                       << InstructionCost{0, 0, 32, 256};
    QTest::newRow("all-gather-start_writes_result_only")
        << collective("all-gather-start", f32({8}), tuple({f32({8}), f32({64})}), false)
        << InstructionCost{0, 0, 32, 256};
    QTest::newRow("collective-permute-start")
        << collective("collective-permute-start", f32({8}),
                      tuple({f32({8}), f32({8}), array(DType::U32, {}), array(DType::U32, {})}), false)
        << InstructionCost{0, 0, 32, 32};
    QTest::newRow("all-to-all") << collective("all-to-all", f32({64}), f32({64}), false)
                                << InstructionCost{0, 0, 256, 256};
}

void TestHloCost::collectives()
{
    QFETCH(Module, module);
    QFETCH(InstructionCost, expected);
    const CostModel model(module);
    COMPARE_COST(model.cost(module.entry, module.entryComputation().root), expected);
}

void TestHloCost::spectralAndLinearAlgebra_data()
{
    QTest::addColumn<Module>("module");
    QTest::addColumn<InstructionCost>("expected");

    const auto op = [](const std::string& opcode, std::vector<Shape> operands, Shape out,
                       std::vector<std::pair<std::string, std::string>> attributes) {
        Builder b;
        const auto e = b.computation("main");
        std::vector<std::uint32_t> args;
        for (Shape& shape : operands)
            args.push_back(b.parameter(e, std::move(shape)));
        const auto i = b.add(e, opcode, std::move(out), args);
        b.at(e, i).attributes = std::move(attributes);
        return b.take();
    };
    const Shape c64x8x1024 = array(DType::C64, {8, 1024});
    // 8 complex transforms of 1024 points: 8 * 5 * 1024 * log2(1024).
    QTest::newRow("fft_complex") << op("fft", {c64x8x1024}, c64x8x1024, {{"fft_type", "FFT"}, {"fft_length", "{1024}"}})
                                 << InstructionCost{8 * 5 * 1024 * 10, 0, 65536, 65536};
    // A real transform is half a complex one: 8 * 2.5 * 1024 * 10.
    QTest::newRow("fft_real") << op("fft", {f32({8, 1024})}, array(DType::C64, {8, 513}),
                                    {{"fft_type", "RFFT"}, {"fft_length", "{1024}"}})
                              << InstructionCost{8 * 25 * 1024, 0, 32768, 8 * 513 * 8};
    // 4 matrices of 64 x 64: 4 * 64^3 / 3 = 349525.33.
    QTest::newRow("cholesky") << op("cholesky", {f32({4, 64, 64})}, f32({4, 64, 64}), {})
                              << InstructionCost{349525, 0, 65536, 65536};
    // A 64 x 64 triangle against 32 right-hand sides: 64^2 * 32.
    QTest::newRow("triangular_solve") << op("triangular-solve", {f32({64, 64}), f32({64, 32})}, f32({64, 32}), {})
                                      << InstructionCost{64 * 64 * 32, 0, 16384 + 8192, 8192};
    // One transcendental per random element (XLA).
    QTest::newRow("rng") << op("rng", {f32({}), f32({})}, f32({256}), {}) << InstructionCost{0, 256, 8, 1024};
}

void TestHloCost::spectralAndLinearAlgebra()
{
    QFETCH(Module, module);
    QFETCH(InstructionCost, expected);
    const CostModel model(module);
    COMPARE_COST(model.cost(module.entry, module.entryComputation().root), expected);
    QVERIFY(model.warnings().empty());
}

void TestHloCost::fusionReadsOnlyWhatItSlices()
{
    // A scan body's fusion: one layer of a stacked [80, 1024, 1024] bf16 weight is sliced and
    // multiplied by x. Only the 2 MiB slice is read, not the 160 MiB stack.
    Builder b;
    const auto fused = b.computation("fused_slice");
    const auto stack = b.parameter(fused, array(DType::BF16, {80, 1024, 1024}));
    const auto layer = b.parameter(fused, array(DType::S32, {}));
    const auto x = b.parameter(fused, array(DType::BF16, {1024, 1024}));
    const auto zero = b.add(fused, "constant", array(DType::S32, {}), {});
    const auto slice = b.add(fused, "dynamic-slice", array(DType::BF16, {1, 1024, 1024}), {stack, layer, zero, zero});
    const auto weight = b.add(fused, "bitcast", array(DType::BF16, {1024, 1024}), {slice});
    const auto product = b.add(fused, "multiply", array(DType::BF16, {1024, 1024}), {weight, x});
    b.add(fused, "exponential", array(DType::BF16, {1024, 1024}), {product});
    const auto e = b.computation("main");
    const auto w = b.parameter(e, array(DType::BF16, {80, 1024, 1024}));
    const auto i = b.parameter(e, array(DType::S32, {}));
    const auto in = b.parameter(e, array(DType::BF16, {1024, 1024}));
    const auto f = b.add(e, "fusion", array(DType::BF16, {1024, 1024}), {w, i, in});
    b.at(e, f).calls = {fused};
    b.at(e, f).fusionKind = "kLoop";
    const Module module = b.take();

    const CostModel model(module);
    const std::uint64_t layerBytes = 1024 * 1024 * 2;
    COMPARE_COST(model.cost(module.entry, f),
                 (InstructionCost{1024 * 1024, 1024 * 1024, layerBytes + 4 + layerBytes, layerBytes}));
    // The fused computation's own instructions keep their standalone costs.
    QCOMPARE(model.cost(fused, slice).bytesRead, layerBytes + 3 * 4);
    QCOMPARE(model.computationCost(fused).flops, quint64(1024 * 1024));
}

void TestHloCost::fusionUpdatesInPlace_data()
{
    QTest::addColumn<bool>("bitcastRoot");
    QTest::newRow("update_is_root") << false;
    QTest::newRow("bitcast_of_update_is_root") << true;
}

void TestHloCost::fusionUpdatesInPlace()
{
    // Writing one layer's gradient into a stacked [80, 256] buffer: the buffer is aliased, so the
    // fusion reads the update and index and writes one row, also when a bitcast relabels the result.
    QFETCH(bool, bitcastRoot);
    Builder b;
    const auto fused = b.computation("fused_update");
    const auto stack = b.parameter(fused, f32({80, 256}));
    const auto row = b.parameter(fused, f32({1, 256}));
    const auto layer = b.parameter(fused, array(DType::S32, {}));
    const auto zero = b.add(fused, "constant", array(DType::S32, {}), {});
    const auto negated = b.add(fused, "negate", f32({1, 256}), {row});
    const auto update = b.add(fused, "dynamic-update-slice", f32({80, 256}), {stack, negated, layer, zero});
    if (bitcastRoot)
        b.add(fused, "bitcast", f32({80, 1, 256}), {update});
    const auto e = b.computation("main");
    const auto s = b.parameter(e, f32({80, 256}));
    const auto r = b.parameter(e, f32({1, 256}));
    const auto i = b.parameter(e, array(DType::S32, {}));
    const auto f = b.add(e, "fusion", bitcastRoot ? f32({80, 1, 256}) : f32({80, 256}), {s, r, i});
    b.at(e, f).calls = {fused};
    const Module module = b.take();
    COMPARE_COST(CostModel(module).cost(module.entry, f), (InstructionCost{256, 0, 1024 + 4, 1024}));
}

void TestHloCost::nestedFusionAndTupleRoot()
{
    // An outer fusion passes its big parameter into a nested fusion that slices it; the outer root
    // is a tuple of an in-place update and a fresh result. Operand bytes: slice 64 (nested) + 4096
    // (elementwise use of p1) + 0 (aliased buffer) + 4 (index); written: 64 (update) + 4096.
    Builder b;
    const auto inner = b.computation("inner");
    const auto ip = b.parameter(inner, f32({1024}));
    b.add(inner, "slice", f32({16}), {ip});
    const auto outer = b.computation("outer");
    const auto big = b.parameter(outer, f32({1024}));
    const auto other = b.parameter(outer, f32({1024}));
    const auto buffer = b.parameter(outer, f32({4096}));
    const auto index = b.parameter(outer, array(DType::S32, {}));
    const auto nested = b.add(outer, "fusion", f32({16}), {big});
    b.at(outer, nested).calls = {inner};
    const auto update = b.add(outer, "dynamic-update-slice", f32({4096}), {buffer, nested, index});
    const auto doubled = b.add(outer, "add", f32({1024}), {other, other});
    b.add(outer, "tuple", tuple({f32({4096}), f32({1024})}), {update, doubled});
    const auto e = b.computation("main");
    std::vector<std::uint32_t> args{b.parameter(e, f32({1024})), b.parameter(e, f32({1024})),
                                    b.parameter(e, f32({4096})), b.parameter(e, array(DType::S32, {}))};
    const auto f = b.add(e, "fusion", tuple({f32({4096}), f32({1024})}), args);
    b.at(e, f).calls = {outer};
    const Module module = b.take();
    COMPARE_COST(CostModel(module).cost(module.entry, f), (InstructionCost{1024, 0, 64 + 4096 + 0 + 4, 64 + 4096}));
}

void TestHloCost::transformerEngineMasks_data()
{
    QTest::addColumn<int>("queries");
    QTest::addColumn<int>("keys");
    QTest::addColumn<int>("maskType");
    QTest::addColumn<quint64>("scores");

    // Sq = 4, Skv = 6. Top-left causal: row i sees min(i + 1, 6) keys = 1+2+3+4. Bottom-right:
    // row i sees i + 3 keys = 3+4+5+6. Padding masks cost like no mask.
    QTest::newRow("no_mask") << 4 << 6 << 0 << quint64(24);
    QTest::newRow("padding") << 4 << 6 << 1 << quint64(24);
    QTest::newRow("causal_top_left") << 4 << 6 << 2 << quint64(10);
    QTest::newRow("padding_causal_top_left") << 4 << 6 << 3 << quint64(10);
    QTest::newRow("causal_bottom_right") << 4 << 6 << 4 << quint64(18);
    // Sq = 6, Skv = 4. Top-left: 1+2+3+4+4+4. Bottom-right: row i sees i - 1 keys, clamped: 0+0+1+2+3+4.
    QTest::newRow("more_queries_top_left") << 6 << 4 << 2 << quint64(18);
    QTest::newRow("more_queries_bottom_right") << 6 << 4 << 5 << quint64(10);
}

void TestHloCost::transformerEngineMasks()
{
    QFETCH(int, queries);
    QFETCH(int, keys);
    QFETCH(int, maskType);
    QFETCH(quint64, scores);
    const QString text = QStringLiteral(R"(HloModule m
ENTRY %main {
  %q = bf16[1,%1,1,8]{3,2,1,0} parameter(0)
  %k = bf16[1,%2,1,8]{3,2,1,0} parameter(1)
  %v = bf16[1,%2,1,8]{3,2,1,0} parameter(2)
  ROOT %attention = (bf16[1,%1,1,8]{3,2,1,0}, u8[16]{0}) custom-call(%q, %k, %v), custom_call_target="te_fused_attn_forward_ffi", api_version=API_VERSION_TYPED_FFI, backend_config={attn_heads = 1 : i64, input_batch = 1 : i64, kv_max_seqlen = %2 : i64, mask_type = %3 : i64, q_max_seqlen = %1 : i64, qk_head_dim = 8 : i64, v_head_dim = 8 : i64}
}
)")
                             .arg(queries)
                             .arg(keys)
                             .arg(maskType);
    const Module module = parseHlo(text.toStdString(), "test.hlo");
    const InstructionCost cost = costOf(module, "attention");
    // QK^T and PV: 2 * scores * (8 + 8).
    QCOMPARE(cost.flops, 32 * scores);
    QCOMPARE(cost.transcendentals, scores);
    QCOMPARE(cost.bytesWritten, quint64(queries) * 8 * 2);
}

void TestHloCost::parsedText_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("name");
    QTest::addColumn<InstructionCost>("expected");

    // The cuBLAS GEMM of model_par_3d.after_optimizations: [5120,256] x [5120,512] contracted on
    // dimension 0 of both (old top-level backend config, dimensions as strings):
    // 2 * 256 * 512 * 5120 FLOPs; reads 5 MiB + 10 MiB, writes 512 KiB.
    QTest::newRow("cublas_gemm_legacy_config")
        << QStringLiteral(R"(HloModule m
ENTRY %main (a: f32[5120,256], b: f32[5120,512]) -> f32[256,512] {
  %a = f32[5120,256]{0,1} parameter(0)
  %b = f32[5120,512]{1,0} parameter(1)
  ROOT %custom-call = f32[256,512]{1,0} custom-call(f32[5120,256]{0,1} %a, f32[5120,512]{1,0} %b), custom_call_target="__cublas$gemm", backend_config="{\"alpha_real\":1,\"alpha_imag\":0,\"beta\":0,\"dot_dimension_numbers\":{\"lhs_contracting_dimensions\":[\"0\"],\"rhs_contracting_dimensions\":[\"0\"],\"lhs_batch_dimensions\":[],\"rhs_batch_dimensions\":[]},\"batch_size\":\"1\",\"selected_algorithm\":\"22\"}"
}
)") << QStringLiteral("custom-call")
        << InstructionCost{2ull * 256 * 512 * 5120, 0, 5120 * 256 * 4 + 5120 * 512 * 4, 256 * 512 * 4};
    // cuBLASLt with gemm_backend_config, batch 4, a bias epilogue (+1 FLOP per output) and an s8
    // workspace that is not counted as written.
    QTest::newRow("cublaslt_bias_workspace") << QStringLiteral(R"(HloModule m
ENTRY %main {
  %a = bf16[4,64,32]{2,1,0} parameter(0)
  %b = bf16[4,32,16]{2,1,0} parameter(1)
  %bias = bf16[16]{0} parameter(2)
  ROOT %gemm = (bf16[4,64,16]{2,1,0}, s8[4194304]{0}) custom-call(%a, %b, %bias), custom_call_target="__cublas$lt$matmul", backend_config={"operation_queue_id":"0","wait_on_operation_queues":[],"gemm_backend_config":{"alpha_real":1,"alpha_imag":0,"beta":0,"dot_dimension_numbers":{"lhs_contracting_dimensions":["2"],"rhs_contracting_dimensions":["1"],"lhs_batch_dimensions":["0"],"rhs_batch_dimensions":["0"]},"epilogue":"BIAS"}}
}
)") << QStringLiteral("gemm") << InstructionCost{2ull * 4 * 64 * 16 * 32 + 4 * 64 * 16, 0, 16384 + 4096 + 32, 8192};
    // A cuDNN weight gradient: the call carries the forward convolution's window and labels
    // (input [4,32,32,64], kernel o01i [32,3,3,64], output [4,32,32,32]); 94 valid taps per axis
    // (32 outputs x 3 taps - 2 in the padding).
    QTest::newRow("cudnn_conv_backward_filter")
        << QStringLiteral(R"(HloModule m
ENTRY %main {
  %images = bf16[4,32,32,64]{3,2,1,0} parameter(0)
  %grad = bf16[4,32,32,32]{3,2,1,0} parameter(1)
  ROOT %conv = (bf16[32,3,3,64]{3,2,1,0}, u8[0]{0}) custom-call(%images, %grad), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_o01i->b01f, custom_call_target="__cudnn$convBackwardFilter"
}
)") << QStringLiteral("conv")
        << InstructionCost{2ull * 64 * 32 * 4 * 94 * 94, 0, 4 * 32 * 32 * 64 * 2 + 4 * 32 * 32 * 32 * 2,
                           32 * 3 * 3 * 64 * 2};
    // cuDNN flash attention, scores [B=2, H=6, Sq=2048, Skv=2048], D=128: 4 * scores * D FLOPs and
    // one exp per score; the u8 scratch is not written.
    const QString fmha = QStringLiteral(R"(HloModule m
ENTRY %main {
  %q = bf16[2,6,2048,128]{3,2,1,0} parameter(0)
  %k = bf16[2,6,2048,128]{3,2,1,0} parameter(1)
  %v = bf16[2,6,2048,128]{3,2,1,0} parameter(2)
  ROOT %fmha = (bf16[2,6,2048,128]{3,2,1,0}, u8[0]{0}) custom-call(%q, %k, %v), custom_call_target="__cudnn$fmhaSoftmax", backend_config={"cudnn_fmha_backend_config":{"fmha_scale":1,"bmm1_dot_dimension_numbers":{"lhs_contracting_dimensions":["3"],"rhs_contracting_dimensions":["3"],"lhs_batch_dimensions":["0","1"],"rhs_batch_dimensions":["0","1"]},"bmm2_dot_dimension_numbers":{"lhs_contracting_dimensions":["3"],"rhs_contracting_dimensions":["2"],"lhs_batch_dimensions":["0","1"],"rhs_batch_dimensions":["0","1"]},"intermediate_tensor_shape":{"element_type":"BF16","dimensions":["2","6","2048","2048"]},"mask_type":"MASK"}}
}
)");
    const std::uint64_t scores = 2ull * 6 * 2048 * 2048;
    const std::uint64_t qkv = 2ull * 6 * 2048 * 128 * 2;
    QTest::newRow("cudnn_fmha_no_mask") << QString(fmha).replace(QStringLiteral("MASK"), QStringLiteral("NO_MASK"))
                                        << QStringLiteral("fmha")
                                        << InstructionCost{4 * scores * 128, scores, 3 * qkv, qkv};
    // Causal: row i keeps i + 1 keys, 2048 * 2049 / 2 of 2048^2 scores per head.
    const std::uint64_t causalScores = 12ull * 2048 * 2049 / 2;
    QTest::newRow("cudnn_fmha_causal") << QString(fmha).replace(QStringLiteral("MASK"), QStringLiteral("CAUSAL"))
                                       << QStringLiteral("fmha")
                                       << InstructionCost{4 * causalScores * 128, causalScores, 3 * qkv, qkv};
    // The backward pass does five score-sized products for the forward's two.
    QTest::newRow("cudnn_fmha_backward") << QString(fmha)
                                                .replace(QStringLiteral("MASK"), QStringLiteral("NO_MASK"))
                                                .replace(QStringLiteral("fmhaSoftmax"),
                                                         QStringLiteral("fmhaSoftmaxBackward"))
                                         << QStringLiteral("fmha")
                                         << InstructionCost{10 * scores * 128, scores, 3 * qkv, qkv};
    // A fused all-gather wrapped in async-start: the wrapped computation's cost; done is free.
    QTest::newRow("async_start_wraps_all_gather") << QStringLiteral(R"(HloModule m
%wrapped (p: f32[8]) -> f32[64] {
  %p = f32[8]{0} parameter(0)
  ROOT %ag = f32[64]{0} all-gather(%p), dimensions={0}, replica_groups={}
}
ENTRY %main {
  %x = f32[8]{0} parameter(0)
  %start = ((f32[8]{0}), f32[64]{0}, s32[]) async-start(%x), calls=%wrapped
  ROOT %done = f32[64]{0} async-done(%start)
}
)") << QStringLiteral("start") << InstructionCost{0, 0, 32, 256};
    // The same fusion as fusionReadsOnlyWhatItSlices, as XLA prints it.
    QTest::newRow("fusion_dynamic_slice_text") << QStringLiteral(R"(HloModule m
%fused_slice (p0: bf16[80,1024,1024], p1: s32[], p2: bf16[1024,1024]) -> bf16[1024,1024] {
  %p0 = bf16[80,1024,1024]{2,1,0} parameter(0)
  %p1 = s32[] parameter(1)
  %c0 = s32[] constant(0)
  %ds = bf16[1,1024,1024]{2,1,0} dynamic-slice(%p0, %p1, %c0, %c0), dynamic_slice_sizes={1,1024,1024}
  %b = bf16[1024,1024]{1,0} bitcast(%ds)
  %p2 = bf16[1024,1024]{1,0} parameter(2)
  ROOT %m = bf16[1024,1024]{1,0} multiply(%b, %p2)
}
ENTRY %main {
  %w = bf16[80,1024,1024]{2,1,0} parameter(0)
  %i = s32[] parameter(1)
  %x = bf16[1024,1024]{1,0} parameter(2)
  ROOT %f = bf16[1024,1024]{1,0} fusion(%w, %i, %x), kind=kLoop, calls=%fused_slice
}
)") << QStringLiteral("f") << InstructionCost{1024 * 1024, 0, 2 * 2097152 + 4, 2097152};
}

void TestHloCost::parsedText()
{
    QFETCH(QString, text);
    QFETCH(QString, name);
    QFETCH(InstructionCost, expected);
    const Module module = parseHlo(text.toStdString(), "test.hlo");
    const CostModel model(module);
    const auto [c, i] = locate(module, name.toStdString());
    COMPARE_COST(model.cost(c, i), expected);
    QVERIFY2(model.warnings().empty(), model.warnings().empty() ? "" : model.warnings().front().text().c_str());
}

void TestHloCost::unknownTargetsAndOpcodesWarnOnce()
{
    const Module module = parseHlo(R"(HloModule m
ENTRY %main {
  %x = f32[5,10]{1,0} parameter(0)
  %a = f32[5,10]{1,0} custom-call(%x), custom_call_target="AwsNeuronTransferWithStaticRing"
  %b = f32[5,10]{1,0} custom-call(%a), custom_call_target="AwsNeuronTransferWithStaticRing"
  ROOT %s = f32[5,10]{1,0} custom-call(%b), custom_call_target="Sharding"
}
)",
                                   "test.hlo");
    const CostModel model(module);
    COMPARE_COST(costOf(module, "a"), (InstructionCost{0, 0, 200, 200}));
    // Sharding annotations emit no kernel.
    COMPARE_COST(costOf(module, "s"), kFree);
    const std::vector<std::string> expected{
        "line 4: custom-call target 'AwsNeuronTransferWithStaticRing' is unknown; costed by its bytes only (2 "
        "instructions)"};
    QCOMPARE(texts(model.warnings()), expected);

    // An opcode the model does not know is costed by its bytes and reported.
    Builder b;
    const auto e = b.computation("main");
    const auto p = b.parameter(e, f32({16}));
    const auto op = b.add(e, "frobnicate", f32({16}), {p});
    const Module unknown = b.take();
    const CostModel unknownModel(unknown);
    COMPARE_COST(unknownModel.cost(unknown.entry, op), (InstructionCost{0, 0, 64, 64}));
    const std::vector<std::string> unknownWarning{
        "line " + std::to_string(unknown.entryComputation().instructions[op].line) +
        ": opcode 'frobnicate' is unknown to the cost model; costed by its bytes only"};
    QCOMPARE(texts(unknownModel.warnings()), unknownWarning);
}

void TestHloCost::countersSaturate()
{
    // 2 * 2^31 * 2^31 * 2 = 2^64 FLOPs do not fit in 64 bits: the count saturates instead of wrapping.
    const Module module = dotModule(f32({std::int64_t(1) << 31, 2}), f32({2, std::int64_t(1) << 31}),
                                    f32({std::int64_t(1) << 31, std::int64_t(1) << 31}), {{}, {1}, {}, {0}});
    QCOMPARE(CostModel(module).cost(module.entry, module.entryComputation().root).flops,
             std::numeric_limits<quint64>::max());
}

void TestHloCost::sharedSamples_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("name");
    QTest::addColumn<InstructionCost>("expected");

    // f32[5120,256] x f32[5120,512] contracted on dimension 0: 2 * 256 * 512 * 5120.
    QTest::newRow("model_par_3d_dot.23") << QStringLiteral("hlo/model_par_3d.before_optimizations_8_gpus.txt")
                                         << QStringLiteral("dot.23")
                                         << InstructionCost{1342177280, 0, 15728640, 524288};
    // Batch 64 and no contraction: f32[64,256] x f32[512,64] -> [64,256,512], 2 * 64 * 256 * 512.
    QTest::newRow("model_par_3d_dot.213_outer")
        << QStringLiteral("hlo/model_par_3d.before_optimizations_8_gpus.txt") << QStringLiteral("dot.213")
        << InstructionCost{16777216, 0, 65536 + 131072, 33554432};
    // The same GEMM after optimisation, as a cuBLAS call.
    QTest::newRow("model_par_3d_cublas") << QStringLiteral("hlo/model_par_3d.after_optimizations_8_gpus.txt")
                                         << QStringLiteral("custom-call")
                                         << InstructionCost{1342177280, 0, 15728640, 524288};
    // Llama 3.1 70B query projection: bf16[2,8192,8192] x bf16[8192,64,128] on the model dimension:
    // 2 * (2*8192) * (64*128) * 8192.
    QTest::newRow("llama70b_dot.5") << QStringLiteral("hlo/hlo_llama31_70b_bf16_16x8.hlo") << QStringLiteral("dot.5")
                                    << InstructionCost{2199023255552ull, 0, 268435456ull + 134217728ull, 268435456ull};
    // Transformer Engine forward attention, B=2, H=64, S=8192, D=128, mask 3 (padding + causal):
    // each of the 128 (batch, head) rows keeps 8192 * 8193 / 2 scores; 4 * scores * 128 FLOPs.
    // Reads q, k, v, the u32[2] seed and two s32[3] offsets; writes the output, softmax stats
    // f32[2,64,8192,1] and rng state u32[2,4], not the u8[48] workspace.
    QTest::newRow("llama70b_te_attention_forward")
        << QStringLiteral("hlo/hlo_llama31_70b_bf16_16x8.hlo") << QStringLiteral("te_fused_attn_forward_ffi.45")
        << InstructionCost{4 * (128ull * 8192 * 8193 / 2) * 128, 128ull * 8192 * 8193 / 2,
                           268435456ull + 2 * 33554432ull + 8 + 24, 268435456ull + 4194304 + 32};
    // Transformer Engine attention, B=2, H=64, S=8192, D=128, mask 3 (padding + causal): each of
    // the 128 (batch, head) rows keeps 8192 * 8193 / 2 scores. Forward: 4 * scores * 128 FLOPs.
    // Backward: 2.5 times that. Reads q, k, v, softmax stats f32[2,64,8192,1], rng state u32[2,4],
    // output and its gradient (both like q) and two s32[3] sequence offsets; writes dq, dk, dv,
    // not the 1 GB u8 workspace.
    const std::uint64_t scores = 128ull * 8192 * 8193 / 2;
    const std::uint64_t q = 268435456ull;
    const std::uint64_t kv = 33554432ull;
    QTest::newRow("llama70b_te_attention_backward")
        << QStringLiteral("hlo/hlo_llama31_70b_bf16_16x8.hlo") << QStringLiteral("te_fused_attn_backward_ffi.48")
        << InstructionCost{10 * scores * 128, scores, 3 * q + 2 * kv + 4194304 + 32 + 24, q + 2 * kv};
}

void TestHloCost::sharedSamples()
{
    QFETCH(QString, file);
    QFETCH(QString, name);
    QFETCH(InstructionCost, expected);
    const QString path = QStringLiteral(FLINT_SHARED_DATA "/") + file;
    if (!QFileInfo::exists(path))
        QSKIP("shared sample data not present");
    const Module module = readHloFile(path.toStdString());
    const CostModel model(module);
    const auto [c, i] = locate(module, name.toStdString());
    COMPARE_COST(model.cost(c, i), expected);
}

QTEST_GUILESS_MAIN(TestHloCost)
#include "tst_hlocost.moc"
