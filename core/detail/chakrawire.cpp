// SPDX-License-Identifier: MIT
#include "core/detail/chakrawire.h"

#include <bit>
#include <cstring>

namespace flint::core::detail {
namespace {

enum class WireType : std::uint8_t { Varint = 0, Fixed64 = 1, Length = 2, StartGroup = 3, EndGroup = 4, Fixed32 = 5 };

/// Field numbers of the schema (core/proto/chakra_et.proto).
struct NodeField {
    static constexpr std::uint32_t Id = 1, Name = 2, Type = 3, CtrlDeps = 4, DataDeps = 5, StartTime = 6, Duration = 7,
                                   Inputs = 8, Outputs = 9, Attr = 10;
};
struct AttrField {
    static constexpr std::uint32_t Name = 1, DocString = 2, FirstValue = 3, LastValue = 32;
};

class Cursor {
public:
    explicit Cursor(std::string_view bytes)
        : m_p(reinterpret_cast<const std::uint8_t*>(bytes.data()))
        , m_end(m_p + bytes.size())
    {}

    bool atEnd() const { return m_p >= m_end; }
    const std::uint8_t* position() const { return m_p; }

    std::uint64_t varint()
    {
        // Fast path: one byte.
        if (m_p < m_end && *m_p < 0x80)
            return *m_p++;
        std::uint64_t value = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            if (m_p >= m_end)
                throw WireError("truncated varint");
            const std::uint8_t byte = *m_p++;
            if (shift == 63 && byte > 1)
                throw WireError("varint longer than 64 bits");
            value |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
            if (byte < 0x80)
                return value;
        }
        throw WireError("varint longer than 10 bytes");
    }

    template <typename T>
    T fixed()
    {
        if (static_cast<std::size_t>(m_end - m_p) < sizeof(T))
            throw WireError("truncated fixed-width value");
        T value;
        std::memcpy(&value, m_p, sizeof(T)); // little-endian on the wire, as on x86-64 and AArch64
        m_p += sizeof(T);
        return value;
    }

    std::string_view bytes()
    {
        const std::uint64_t length = varint();
        if (length > static_cast<std::uint64_t>(m_end - m_p))
            throw WireError("field length " + std::to_string(length) + " runs past the end of the message");
        std::string_view view(reinterpret_cast<const char*>(m_p), length);
        m_p += length;
        return view;
    }

    /// Reads a tag; returns the field number and sets `type`.
    std::uint32_t tag(WireType& type)
    {
        const std::uint64_t key = varint();
        type = static_cast<WireType>(key & 7);
        const std::uint64_t field = key >> 3;
        if (field == 0 || field > 0x1fffffff)
            throw WireError("invalid field number " + std::to_string(field));
        return static_cast<std::uint32_t>(field);
    }

    void skip(WireType type)
    {
        switch (type) {
        case WireType::Varint:
            varint();
            return;
        case WireType::Fixed64:
            fixed<std::uint64_t>();
            return;
        case WireType::Length:
            bytes();
            return;
        case WireType::Fixed32:
            fixed<std::uint32_t>();
            return;
        case WireType::StartGroup:
        case WireType::EndGroup:
            break;
        }
        throw WireError("unsupported wire type " + std::to_string(static_cast<int>(type)));
    }

private:
    const std::uint8_t* m_p;
    const std::uint8_t* m_end;
};

std::int64_t zigzag(std::uint64_t n)
{
    return static_cast<std::int64_t>(n >> 1) ^ -static_cast<std::int64_t>(n & 1);
}

/// Appends a repeated uint64 field's value(s): packed (length-delimited) or one unpacked varint.
void appendUint64s(Cursor& in, WireType type, std::vector<std::uint64_t>& out)
{
    if (type == WireType::Varint) {
        out.push_back(in.varint());
        return;
    }
    if (type != WireType::Length) {
        in.skip(type);
        return;
    }
    Cursor packed(in.bytes());
    while (!packed.atEnd())
        out.push_back(packed.varint());
}

void decodeIo(std::string_view message, IoInfo& io)
{
    Cursor in(message);
    while (!in.atEnd()) {
        WireType type;
        const std::uint32_t field = in.tag(type);
        if (type == WireType::Length && field >= 1 && field <= 3) {
            const std::string_view text = in.bytes();
            (field == 1 ? io.values : field == 2 ? io.shapes : io.types).assign(text);
        } else {
            in.skip(type);
        }
    }
}

/// The value of an attribute before we know whether it is one of the known ones.
struct RawAttribute {
    std::string_view name;
    std::string_view docString;
    AttributeKind kind = AttributeKind::None;
    std::uint64_t scalar = 0; ///< varint or fixed bits of a scalar value
    std::string_view payload; ///< string or bytes value, or the encoded list message
};

/// Wire type each value field must have; lists and strings are length-delimited.
WireType expectedWireType(AttributeKind kind)
{
    switch (kind) {
    case AttributeKind::Double:
    case AttributeKind::Fixed64:
    case AttributeKind::Sfixed64:
        return WireType::Fixed64;
    case AttributeKind::Float:
    case AttributeKind::Fixed32:
    case AttributeKind::Sfixed32:
        return WireType::Fixed32;
    case AttributeKind::Int32:
    case AttributeKind::Int64:
    case AttributeKind::Uint32:
    case AttributeKind::Uint64:
    case AttributeKind::Sint32:
    case AttributeKind::Sint64:
    case AttributeKind::Bool:
        return WireType::Varint;
    default:
        return WireType::Length;
    }
}

RawAttribute decodeRawAttribute(std::string_view message)
{
    RawAttribute raw;
    Cursor in(message);
    while (!in.atEnd()) {
        WireType type;
        const std::uint32_t field = in.tag(type);
        if (field == AttrField::Name && type == WireType::Length) {
            raw.name = in.bytes();
        } else if (field == AttrField::DocString && type == WireType::Length) {
            raw.docString = in.bytes();
        } else if (field >= AttrField::FirstValue && field <= AttrField::LastValue &&
                   type == expectedWireType(static_cast<AttributeKind>(field))) {
            raw.kind = static_cast<AttributeKind>(field);
            raw.scalar = 0;
            raw.payload = {};
            switch (type) {
            case WireType::Varint:
                raw.scalar = in.varint();
                break;
            case WireType::Fixed64:
                raw.scalar = in.fixed<std::uint64_t>();
                break;
            case WireType::Fixed32:
                raw.scalar = in.fixed<std::uint32_t>();
                break;
            default:
                raw.payload = in.bytes();
                break;
            }
        } else {
            in.skip(type);
        }
    }
    return raw;
}

/// Decodes the elements of a list message (field 1, packed or not) with `element` reading one value.
template <typename Element>
void decodeList(std::string_view message, WireType elementType, Element element)
{
    Cursor in(message);
    while (!in.atEnd()) {
        WireType type;
        const std::uint32_t field = in.tag(type);
        if (field != 1) {
            in.skip(type);
        } else if (type == WireType::Length && elementType != WireType::Length) {
            Cursor packed(in.bytes());
            while (!packed.atEnd())
                element(packed);
        } else if (type == elementType) {
            element(in);
        } else {
            in.skip(type);
        }
    }
}

Attribute toAttribute(const RawAttribute& raw)
{
    Attribute a;
    a.name.assign(raw.name);
    a.docString.assign(raw.docString);
    a.kind = raw.kind;
    const std::uint64_t s = raw.scalar;
    switch (raw.kind) {
    case AttributeKind::None:
        break;
    case AttributeKind::Double:
        a.reals = {std::bit_cast<double>(s)};
        break;
    case AttributeKind::Float:
        a.reals = {std::bit_cast<float>(static_cast<std::uint32_t>(s))};
        break;
    case AttributeKind::Int32:
        a.ints = {static_cast<std::int32_t>(s)};
        break;
    case AttributeKind::Int64:
        a.ints = {static_cast<std::int64_t>(s)};
        break;
    case AttributeKind::Uint32:
        a.uints = {static_cast<std::uint32_t>(s)};
        break;
    case AttributeKind::Uint64:
        a.uints = {s};
        break;
    case AttributeKind::Sint32:
        a.ints = {static_cast<std::int32_t>(zigzag(static_cast<std::uint32_t>(s)))};
        break;
    case AttributeKind::Sint64:
        a.ints = {zigzag(s)};
        break;
    case AttributeKind::Fixed32:
        a.uints = {static_cast<std::uint32_t>(s)};
        break;
    case AttributeKind::Fixed64:
        a.uints = {s};
        break;
    case AttributeKind::Sfixed32:
        a.ints = {static_cast<std::int32_t>(static_cast<std::uint32_t>(s))};
        break;
    case AttributeKind::Sfixed64:
        a.ints = {static_cast<std::int64_t>(s)};
        break;
    case AttributeKind::Bool:
        a.ints = {s != 0 ? 1 : 0};
        break;
    case AttributeKind::String:
    case AttributeKind::Bytes:
        a.strings = {std::string(raw.payload)};
        break;
    case AttributeKind::DoubleList:
        decodeList(raw.payload, WireType::Fixed64,
                   [&](Cursor& c) { a.reals.push_back(std::bit_cast<double>(c.fixed<std::uint64_t>())); });
        break;
    case AttributeKind::FloatList:
        decodeList(raw.payload, WireType::Fixed32,
                   [&](Cursor& c) { a.reals.push_back(std::bit_cast<float>(c.fixed<std::uint32_t>())); });
        break;
    case AttributeKind::Int32List:
        decodeList(raw.payload, WireType::Varint,
                   [&](Cursor& c) { a.ints.push_back(static_cast<std::int32_t>(c.varint())); });
        break;
    case AttributeKind::Int64List:
        decodeList(raw.payload, WireType::Varint,
                   [&](Cursor& c) { a.ints.push_back(static_cast<std::int64_t>(c.varint())); });
        break;
    case AttributeKind::Uint32List:
        decodeList(raw.payload, WireType::Varint,
                   [&](Cursor& c) { a.uints.push_back(static_cast<std::uint32_t>(c.varint())); });
        break;
    case AttributeKind::Uint64List:
        decodeList(raw.payload, WireType::Varint, [&](Cursor& c) { a.uints.push_back(c.varint()); });
        break;
    case AttributeKind::Sint32List:
        decodeList(raw.payload, WireType::Varint, [&](Cursor& c) {
            a.ints.push_back(static_cast<std::int32_t>(zigzag(static_cast<std::uint32_t>(c.varint()))));
        });
        break;
    case AttributeKind::Sint64List:
        decodeList(raw.payload, WireType::Varint, [&](Cursor& c) { a.ints.push_back(zigzag(c.varint())); });
        break;
    case AttributeKind::Fixed32List:
        decodeList(raw.payload, WireType::Fixed32, [&](Cursor& c) { a.uints.push_back(c.fixed<std::uint32_t>()); });
        break;
    case AttributeKind::Fixed64List:
        decodeList(raw.payload, WireType::Fixed64, [&](Cursor& c) { a.uints.push_back(c.fixed<std::uint64_t>()); });
        break;
    case AttributeKind::Sfixed32List:
        decodeList(raw.payload, WireType::Fixed32, [&](Cursor& c) { a.ints.push_back(c.fixed<std::int32_t>()); });
        break;
    case AttributeKind::Sfixed64List:
        decodeList(raw.payload, WireType::Fixed64, [&](Cursor& c) { a.ints.push_back(c.fixed<std::int64_t>()); });
        break;
    case AttributeKind::BoolList:
        decodeList(raw.payload, WireType::Varint, [&](Cursor& c) { a.ints.push_back(c.varint() != 0 ? 1 : 0); });
        break;
    case AttributeKind::StringList:
    case AttributeKind::BytesList:
        decodeList(raw.payload, WireType::Length, [&](Cursor& c) { a.strings.emplace_back(c.bytes()); });
        break;
    }
    return a;
}

void setBit(Op& op, ChakraAttr attr)
{
    op.chakraAttributes |= static_cast<std::uint16_t>(attr);
}

/// Interprets the attributes ASTRA-sim reads, with exactly the value kinds its feeder reads them as
/// (docs/chakra-format.md); anything else, or a known name with another kind, is kept verbatim.
void readAttribute(const RawAttribute& raw, Op& op, std::string& pgName, bool& hasPgName)
{
    const std::string_view name = raw.name;
    const AttributeKind kind = raw.kind;
    const std::uint64_t s = raw.scalar;
    bool known = true;
    if (name == "is_cpu_op" && kind == AttributeKind::Bool) {
        op.isCpuOp = s != 0;
        setBit(op, ChakraAttr::IsCpuOp);
    } else if (name == "num_ops" && kind == AttributeKind::Int64) {
        if (static_cast<std::int64_t>(s) < 0)
            throw WireError("node " + std::to_string(op.id) + " (\"" + op.name + "\"): num_ops " +
                            std::to_string(static_cast<std::int64_t>(s)) + " is negative");
        op.flops = s;
        setBit(op, ChakraAttr::NumOps);
    } else if (name == "tensor_size" && kind == AttributeKind::Uint64) {
        op.bytesRead = s;
        setBit(op, ChakraAttr::TensorSize);
    } else if (name == "comm_type" && kind == AttributeKind::Int64) {
        const auto value = static_cast<std::int64_t>(s);
        if (value < 0 || value > static_cast<std::int64_t>(CollectiveKind::Barrier))
            throw WireError("node " + std::to_string(op.id) + " (\"" + op.name +
                            "\"): unknown CollectiveCommType value " + std::to_string(value));
        op.collective = static_cast<CollectiveKind>(value);
        setBit(op, ChakraAttr::CommType);
    } else if (name == "comm_size" && kind == AttributeKind::Int64) {
        if (static_cast<std::int64_t>(s) < 0)
            throw WireError("node " + std::to_string(op.id) + " (\"" + op.name + "\"): comm_size " +
                            std::to_string(static_cast<std::int64_t>(s)) + " is negative");
        op.commBytes = s;
        setBit(op, ChakraAttr::CommSize);
    } else if (name == "comm_src" && kind == AttributeKind::Int32) {
        op.commSrc = static_cast<std::int32_t>(s);
        setBit(op, ChakraAttr::CommSrc);
    } else if (name == "comm_dst" && kind == AttributeKind::Int32) {
        op.commDst = static_cast<std::int32_t>(s);
        setBit(op, ChakraAttr::CommDst);
    } else if (name == "comm_tag" && kind == AttributeKind::Int32) {
        op.commTag = static_cast<std::int32_t>(s);
        setBit(op, ChakraAttr::CommTag);
    } else if (name == "comm_priority" && kind == AttributeKind::Int32) {
        op.commPriority = static_cast<std::int32_t>(s);
        setBit(op, ChakraAttr::CommPriority);
    } else if (name == "pg_name" && kind == AttributeKind::String) {
        pgName.assign(raw.payload);
        hasPgName = true;
        setBit(op, ChakraAttr::PgName);
    } else if (name == "involved_dim" && kind == AttributeKind::BoolList) {
        auto& dims = op.extras.mutate().involvedDims;
        dims.clear();
        decodeList(raw.payload, WireType::Varint, [&](Cursor& c) { dims.push_back(c.varint() != 0); });
        setBit(op, ChakraAttr::InvolvedDim);
    } else if (name.starts_with("flint.")) {
        // Our own facts that Chakra has no field for (docs/chakra-format.md).
        if (name == "flint.scope" && kind == AttributeKind::String) {
            op.scope.assign(raw.payload);
        } else if (name == "flint.bytes_written" && kind == AttributeKind::Uint64) {
            op.bytesWritten = s;
        } else if (name == "flint.dtype" && kind == AttributeKind::String) {
            const auto dtype = dtypeFromString(raw.payload);
            if (!dtype)
                throw WireError("node " + std::to_string(op.id) + ": unknown flint.dtype \"" +
                                std::string(raw.payload) + "\"");
            op.dtype = *dtype;
        } else if (name == "flint.shape" && kind == AttributeKind::Int64List) {
            op.shape.clear();
            decodeList(raw.payload, WireType::Varint,
                       [&](Cursor& c) { op.shape.push_back(static_cast<std::int64_t>(c.varint())); });
        } else {
            known = false;
        }
    } else {
        known = false;
    }
    if (!known)
        op.extras.mutate().attributes.push_back(toAttribute(raw));
}

} // namespace

bool sameNodeExceptTimes(std::string_view message, std::string_view reference, std::uint64_t& startMicros,
                         std::uint64_t& durationMicros)
{
    // The next field other than the recorded times, as its raw bytes (tag included); empty at the end.
    const auto nextField = [](Cursor& in, std::uint64_t* start, std::uint64_t* duration) {
        while (!in.atEnd()) {
            const std::uint8_t* begin = in.position();
            WireType type;
            const std::uint32_t field = in.tag(type);
            if ((field == NodeField::StartTime || field == NodeField::Duration) && type == WireType::Varint) {
                const std::uint64_t value = in.varint(); // the last one wins, as in decodeNode
                if (start)
                    *(field == NodeField::StartTime ? start : duration) = value;
                continue;
            }
            in.skip(type);
            return std::string_view(reinterpret_cast<const char*>(begin),
                                    static_cast<std::size_t>(in.position() - begin));
        }
        return std::string_view();
    };
    Cursor a(message);
    Cursor b(reference);
    startMicros = 0;
    durationMicros = 0;
    while (true) {
        const std::string_view x = nextField(a, &startMicros, &durationMicros);
        const std::string_view y = nextField(b, nullptr, nullptr);
        if (x != y)
            return false;
        if (x.empty())
            return true;
    }
}

void decodeNode(std::string_view message, Op& op, std::string& pgName, bool& hasPgName)
{
    hasPgName = false;
    op.chakraAttributes = static_cast<std::uint16_t>(ChakraAttr::FromChakra);
    // proto3 leaves a field at its default unwritten: a node without a type is INVALID_NODE (0), not
    // a compute node (two zero bytes used to read as a one-node compute trace).
    op.kind = OpKind::Invalid;
    Cursor in(message);
    // Attributes are interpreted after the other fields so that error messages can name the node.
    std::string_view attributes[16];
    std::vector<std::string_view> moreAttributes;
    std::size_t attributeCount = 0;
    while (!in.atEnd()) {
        WireType type;
        const std::uint32_t field = in.tag(type);
        switch (field) {
        case NodeField::Id:
            if (type == WireType::Varint) {
                op.id = in.varint();
                continue;
            }
            break;
        case NodeField::Name:
            if (type == WireType::Length) {
                op.name.assign(in.bytes());
                continue;
            }
            break;
        case NodeField::Type:
            if (type == WireType::Varint) {
                // An enum is an int32 on the wire; a negative value comes sign-extended to 64 bits.
                const auto value = static_cast<std::int32_t>(in.varint());
                if (value < 0 || value > static_cast<std::int32_t>(OpKind::Collective))
                    throw WireError("node " + std::to_string(op.id) +
                                    (op.name.empty() ? "" : " (\"" + op.name + "\")") + ": unknown NodeType value " +
                                    std::to_string(value));
                op.kind = static_cast<OpKind>(value);
                continue;
            }
            break;
        case NodeField::CtrlDeps:
            appendUint64s(in, type, op.ctrlDeps);
            continue;
        case NodeField::DataDeps:
            appendUint64s(in, type, op.dataDeps);
            continue;
        case NodeField::StartTime:
            if (type == WireType::Varint) {
                op.startTimeMicros = in.varint();
                continue;
            }
            break;
        case NodeField::Duration:
            if (type == WireType::Varint) {
                op.durationMicros = in.varint();
                continue;
            }
            break;
        case NodeField::Inputs:
        case NodeField::Outputs:
            if (type == WireType::Length) {
                auto& io = field == NodeField::Inputs ? op.extras.mutate().inputs : op.extras.mutate().outputs;
                if (!io)
                    io.emplace();
                decodeIo(in.bytes(), *io);
                continue;
            }
            break;
        case NodeField::Attr:
            if (type == WireType::Length) {
                const std::string_view attr = in.bytes();
                if (attributeCount < std::size(attributes))
                    attributes[attributeCount] = attr;
                else
                    moreAttributes.push_back(attr);
                ++attributeCount;
                continue;
            }
            break;
        default:
            break;
        }
        in.skip(type);
    }
    for (std::size_t i = 0; i < attributeCount; ++i)
        readAttribute(decodeRawAttribute(i < std::size(attributes) ? attributes[i] : moreAttributes[i - 16]), op,
                      pgName, hasPgName);
    // tensor_size is total traffic; the written share travels in flint.bytes_written.
    op.bytesRead -= std::min(op.bytesRead, op.bytesWritten);
}

} // namespace flint::core::detail
