// SPDX-License-Identifier: MIT
#include "core/detail/chakraattributes.h"

namespace flint::core::detail {
namespace {

using Proto = ChakraProtoMsg::AttributeProto;

template <typename List, typename Out>
void copyList(const List& list, std::vector<Out>& out)
{
    out.assign(list.values().begin(), list.values().end());
}

template <typename List, typename In>
void fillList(const std::vector<In>& values, List* list)
{
    for (const auto& v : values)
        list->add_values(v);
}

template <typename T, typename In>
T first(const std::vector<In>& values)
{
    return values.empty() ? T{} : static_cast<T>(values.front());
}

} // namespace

void fromProto(Proto& proto, Attribute& out)
{
    out.name = std::move(*proto.mutable_name());
    out.docString = std::move(*proto.mutable_doc_string());
    out.kind = static_cast<AttributeKind>(proto.value_case());
    out.ints.clear();
    out.uints.clear();
    out.reals.clear();
    out.strings.clear();
    switch (proto.value_case()) {
    case Proto::VALUE_NOT_SET:
        break;
    case Proto::kDoubleVal:
        out.reals = {proto.double_val()};
        break;
    case Proto::kDoubleList:
        copyList(proto.double_list(), out.reals);
        break;
    case Proto::kFloatVal:
        out.reals = {proto.float_val()};
        break;
    case Proto::kFloatList:
        copyList(proto.float_list(), out.reals);
        break;
    case Proto::kInt32Val:
        out.ints = {proto.int32_val()};
        break;
    case Proto::kInt32List:
        copyList(proto.int32_list(), out.ints);
        break;
    case Proto::kInt64Val:
        out.ints = {proto.int64_val()};
        break;
    case Proto::kInt64List:
        copyList(proto.int64_list(), out.ints);
        break;
    case Proto::kUint32Val:
        out.uints = {proto.uint32_val()};
        break;
    case Proto::kUint32List:
        copyList(proto.uint32_list(), out.uints);
        break;
    case Proto::kUint64Val:
        out.uints = {proto.uint64_val()};
        break;
    case Proto::kUint64List:
        copyList(proto.uint64_list(), out.uints);
        break;
    case Proto::kSint32Val:
        out.ints = {proto.sint32_val()};
        break;
    case Proto::kSint32List:
        copyList(proto.sint32_list(), out.ints);
        break;
    case Proto::kSint64Val:
        out.ints = {proto.sint64_val()};
        break;
    case Proto::kSint64List:
        copyList(proto.sint64_list(), out.ints);
        break;
    case Proto::kFixed32Val:
        out.uints = {proto.fixed32_val()};
        break;
    case Proto::kFixed32List:
        copyList(proto.fixed32_list(), out.uints);
        break;
    case Proto::kFixed64Val:
        out.uints = {proto.fixed64_val()};
        break;
    case Proto::kFixed64List:
        copyList(proto.fixed64_list(), out.uints);
        break;
    case Proto::kSfixed32Val:
        out.ints = {proto.sfixed32_val()};
        break;
    case Proto::kSfixed32List:
        copyList(proto.sfixed32_list(), out.ints);
        break;
    case Proto::kSfixed64Val:
        out.ints = {proto.sfixed64_val()};
        break;
    case Proto::kSfixed64List:
        copyList(proto.sfixed64_list(), out.ints);
        break;
    case Proto::kBoolVal:
        out.ints = {proto.bool_val() ? 1 : 0};
        break;
    case Proto::kBoolList:
        copyList(proto.bool_list(), out.ints);
        break;
    case Proto::kStringVal:
        out.strings = {std::move(*proto.mutable_string_val())};
        break;
    case Proto::kStringList:
        copyList(proto.string_list(), out.strings);
        break;
    case Proto::kBytesVal:
        out.strings = {std::move(*proto.mutable_bytes_val())};
        break;
    case Proto::kBytesList:
        copyList(proto.bytes_list(), out.strings);
        break;
    }
}

void toProto(const Attribute& a, Proto& out)
{
    out.set_name(a.name);
    if (!a.docString.empty())
        out.set_doc_string(a.docString);
    switch (a.kind) {
    case AttributeKind::None:
        break;
    case AttributeKind::Double:
        out.set_double_val(first<double>(a.reals));
        break;
    case AttributeKind::DoubleList:
        fillList(a.reals, out.mutable_double_list());
        break;
    case AttributeKind::Float:
        out.set_float_val(first<float>(a.reals));
        break;
    case AttributeKind::FloatList:
        for (double v : a.reals)
            out.mutable_float_list()->add_values(static_cast<float>(v));
        break;
    case AttributeKind::Int32:
        out.set_int32_val(first<std::int32_t>(a.ints));
        break;
    case AttributeKind::Int32List:
        for (auto v : a.ints)
            out.mutable_int32_list()->add_values(static_cast<std::int32_t>(v));
        break;
    case AttributeKind::Int64:
        out.set_int64_val(first<std::int64_t>(a.ints));
        break;
    case AttributeKind::Int64List:
        fillList(a.ints, out.mutable_int64_list());
        break;
    case AttributeKind::Uint32:
        out.set_uint32_val(first<std::uint32_t>(a.uints));
        break;
    case AttributeKind::Uint32List:
        for (auto v : a.uints)
            out.mutable_uint32_list()->add_values(static_cast<std::uint32_t>(v));
        break;
    case AttributeKind::Uint64:
        out.set_uint64_val(first<std::uint64_t>(a.uints));
        break;
    case AttributeKind::Uint64List:
        fillList(a.uints, out.mutable_uint64_list());
        break;
    case AttributeKind::Sint32:
        out.set_sint32_val(first<std::int32_t>(a.ints));
        break;
    case AttributeKind::Sint32List:
        for (auto v : a.ints)
            out.mutable_sint32_list()->add_values(static_cast<std::int32_t>(v));
        break;
    case AttributeKind::Sint64:
        out.set_sint64_val(first<std::int64_t>(a.ints));
        break;
    case AttributeKind::Sint64List:
        fillList(a.ints, out.mutable_sint64_list());
        break;
    case AttributeKind::Fixed32:
        out.set_fixed32_val(first<std::uint32_t>(a.uints));
        break;
    case AttributeKind::Fixed32List:
        for (auto v : a.uints)
            out.mutable_fixed32_list()->add_values(static_cast<std::uint32_t>(v));
        break;
    case AttributeKind::Fixed64:
        out.set_fixed64_val(first<std::uint64_t>(a.uints));
        break;
    case AttributeKind::Fixed64List:
        fillList(a.uints, out.mutable_fixed64_list());
        break;
    case AttributeKind::Sfixed32:
        out.set_sfixed32_val(first<std::int32_t>(a.ints));
        break;
    case AttributeKind::Sfixed32List:
        for (auto v : a.ints)
            out.mutable_sfixed32_list()->add_values(static_cast<std::int32_t>(v));
        break;
    case AttributeKind::Sfixed64:
        out.set_sfixed64_val(first<std::int64_t>(a.ints));
        break;
    case AttributeKind::Sfixed64List:
        fillList(a.ints, out.mutable_sfixed64_list());
        break;
    case AttributeKind::Bool:
        out.set_bool_val(first<std::int64_t>(a.ints) != 0);
        break;
    case AttributeKind::BoolList:
        for (auto v : a.ints)
            out.mutable_bool_list()->add_values(v != 0);
        break;
    case AttributeKind::String:
        out.set_string_val(a.asString());
        break;
    case AttributeKind::StringList:
        fillList(a.strings, out.mutable_string_list());
        break;
    case AttributeKind::Bytes:
        out.set_bytes_val(a.asString());
        break;
    case AttributeKind::BytesList:
        fillList(a.strings, out.mutable_bytes_list());
        break;
    }
}

} // namespace flint::core::detail
