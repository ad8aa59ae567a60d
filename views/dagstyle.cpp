// SPDX-License-Identifier: MIT
#include "views/dagstyle.h"

#include "views/viewpalette.h"

#include <set>

#include <QCoreApplication>

namespace flint::views {

namespace {

DagStyle::Look lookFor(DagNodeKind kind, core::CollectiveKind collective)
{
    DagStyle::Look look;
    QColor base;
    switch (kind) {
    case DagNodeKind::Compute:
        base = colorOf(core::OpKind::Compute);
        look.shape = DagStyle::Shape::Box;
        break;
    case DagNodeKind::Memory:
        base = colorOf(core::OpKind::MemLoad);
        look.shape = DagStyle::Shape::RoundedBox;
        break;
    case DagNodeKind::Collective:
        base = colorOf(core::OpKind::Collective, collective);
        look.shape = DagStyle::Shape::Pill;
        break;
    case DagNodeKind::SendRecv:
        base = colorOf(core::OpKind::Send);
        look.shape = DagStyle::Shape::Hexagon;
        break;
    case DagNodeKind::Other:
        base = colorOf(core::OpKind::Metadata);
        break;
    case DagNodeKind::Group:
        look.fill = QColor(0xee, 0xee, 0xf2);
        look.border = QColor(0x55, 0x5b, 0x6e);
        look.shape = DagStyle::Shape::Group;
        return look;
    case DagNodeKind::Repeated:
        look.fill = QColor(0xe4, 0xe6, 0xf5);
        look.border = QColor(0x3f, 0x46, 0x8c);
        look.shape = DagStyle::Shape::Stack;
        return look;
    }
    // A light fill keeps dark text readable; the border carries the full colour.
    look.fill =
        QColor::fromRgbF(0.45f * base.redF() + 0.55f, 0.45f * base.greenF() + 0.55f, 0.45f * base.blueF() + 0.55f);
    look.border = base.darker(135);
    return look;
}

QString tr(const char* text)
{
    return QCoreApplication::translate("flint::views::DagStyle", text);
}

} // namespace

DagStyle::Look DagStyle::lookOf(const DagNode& node)
{
    return lookFor(node.kind, node.collective);
}

std::vector<DagStyle::LegendEntry> DagStyle::legendFor(const DagLayout& layout)
{
    std::set<int> kinds;
    std::set<int> collectives;
    for (const DagNode& node : layout.nodes) {
        kinds.insert(static_cast<int>(node.kind));
        if (node.kind == DagNodeKind::Collective)
            collectives.insert(static_cast<int>(node.collective));
    }
    std::vector<LegendEntry> entries;
    const auto add = [&](DagNodeKind kind, const QString& text) {
        if (kinds.contains(static_cast<int>(kind)))
            entries.push_back({text, lookFor(kind, core::CollectiveKind::AllReduce)});
    };
    add(DagNodeKind::Compute, tr("compute"));
    add(DagNodeKind::Memory, tr("memory load/store"));
    for (int c : collectives) {
        const auto kind = static_cast<core::CollectiveKind>(c);
        const auto name = core::displayName(kind);
        entries.push_back({QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size())),
                           lookFor(DagNodeKind::Collective, kind)});
    }
    add(DagNodeKind::SendRecv, tr("send / recv"));
    add(DagNodeKind::Other, tr("other"));
    add(DagNodeKind::Group, tr("group (double-click)"));
    add(DagNodeKind::Repeated, tr("repeated block ×N"));
    return entries;
}

} // namespace flint::views
