// SPDX-License-Identifier: MIT
#include "views/whatifpanel.h"

#include "views/elidingcombobox.h"
#include "views/networknames.h"

#include <cmath>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSpinBox>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace flint::views {
namespace {

QString fromView(std::string_view text)
{
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

/// The panel shows decimal GB/s (10^9 bytes/s), the unit of data sheets and of the command line's
/// --scale-out-bandwidth; the network model keeps ASTRA-sim's GB = 2^30 bytes (core/estimator/topology.h).
double toDisplayedGBps(double networkGBps)
{
    return networkGBps * core::kNetworkGB / 1e9;
}

/// True when `box` shows `exact` as rounded to its decimals: the user did not change it.
bool sameDisplayed(const QDoubleSpinBox* box, double exact)
{
    const double scale = std::pow(10.0, box->decimals());
    return box->value() == std::round(exact * scale) / scale;
}

} // namespace

WhatIfPanel::WhatIfPanel(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    m_preset = new ElidingComboBox(this);
    m_preset->addItem(tr("(custom)"), QString());
    for (const auto& preset : core::clusterPresets())
        m_preset->addItem(QString::fromStdString(preset.name), QString::fromStdString(preset.name));
    m_preset->setToolTip(tr("A built-in system, sized to the workload's ranks"));
    m_device = new ElidingComboBox(this);
    for (const auto& device : core::devicePresets())
        m_device->addItem(QString::fromStdString(device.name + " — " + device.title),
                          QString::fromStdString(device.name));
    m_model = new ElidingComboBox(this);
    m_model->addItem(tr("Flint (default)"), int(core::CostModel::Flint));
    m_model->addItem(tr("ASTRA-sim analytical"), int(core::CostModel::AstraSim));
    m_streams = new QSpinBox(this);
    m_streams->setRange(1, 8);
    // The combo boxes may be narrower than their longest entry (the device titles): the panel then
    // gives way to the views' tab bar on a 1,280-pixel screen; the list shows entries whole.
    for (QComboBox* combo : {m_preset, m_device, m_model}) {
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combo->setMinimumContentsLength(12);
    }
    form->addRow(tr("System"), m_preset);
    form->addRow(tr("Device"), m_device);
    form->addRow(tr("Collective model"), m_model);
    form->addRow(tr("Comm streams"), m_streams);
    layout->addLayout(form);

    m_dims = new QTableWidget(0, 5, this);
    // Short headers (the panel is narrow), each explained by its tooltip; what does not fit is elided
    // at the end, never cut at both sides.
    const QList<std::pair<QString, QString>> headers{
        {tr("Topology"), tr("How the NPUs of this dimension are connected")},
        {tr("NPUs"), tr("NPUs along this dimension")},
        {tr("GB/s"), tr("Bandwidth per NPU in this dimension, GB/s")},
        {tr("ns"), tr("Latency per hop, ns")},
        {tr("Algorithm"), tr("Collective algorithm in this dimension")},
    };
    for (int c = 0; c < headers.size(); ++c) {
        auto* header = new QTableWidgetItem(headers[c].first);
        header->setToolTip(headers[c].second);
        m_dims->setHorizontalHeaderItem(c, header);
    }
    // The topology as wide as "Switch", the NPU count as its digits, bandwidth and latency as six
    // characters ("370.80", "2000.0"; "2000.0" cut to "200" would read as another latency), the
    // algorithm the rest (a long name is elided in its box, whole in its list). A narrower dock
    // scrolls the table.
    QHeaderView* header = m_dims->horizontalHeader();
    const int number = m_dims->fontMetrics().horizontalAdvance(QStringLiteral("0000.00")) + 4;
    header->setMinimumSectionSize(m_dims->fontMetrics().horizontalAdvance(QStringLiteral("00000")) + 8);
    for (int c : {0, 1})
        header->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    for (int c : {2, 3}) {
        header->setSectionResizeMode(c, QHeaderView::Fixed);
        header->resizeSection(c, number);
    }
    header->setSectionResizeMode(4, QHeaderView::Stretch);
    header->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    header->setTextElideMode(Qt::ElideRight);
    // No row numbers: the label above says the order, and the five columns need the width at 1,280
    // pixels (with them the algorithm column scrolled out of view).
    m_dims->verticalHeader()->setVisible(false);
    m_dims->setMinimumHeight(110);
    layout->addWidget(new QLabel(tr("Network dimensions (innermost first)"), this));
    layout->addWidget(m_dims);

    m_fixed = new QLabel(this);
    m_fixed->setWordWrap(true);
    m_fixed->setForegroundRole(QPalette::PlaceholderText);
    m_comparison = new QLabel(this);
    m_comparison->setWordWrap(true);
    m_comparison->setTextFormat(Qt::RichText);
    layout->addWidget(m_comparison);
    layout->addWidget(m_fixed);
    layout->addStretch(1);

    m_debounce = new QTimer(this);
    m_debounce->setSingleShot(true);
    m_debounce->setTimerType(Qt::PreciseTimer); // a coarse timer may fire 5% late: latency a user sees
    m_debounce->setInterval(kDebounceMs);
    connect(m_debounce, &QTimer::timeout, this, [this] { Q_EMIT clusterChanged(cluster()); });
    connect(m_preset, &QComboBox::activated, this, [this](int index) {
        const QString name = m_preset->itemData(index).toString();
        if (!name.isEmpty())
            Q_EMIT presetChosen(name);
    });
    connect(m_device, &QComboBox::currentIndexChanged, this, &WhatIfPanel::edited);
    // The box may be too narrow for the device's whole title: the tooltip shows it.
    connect(m_device, &QComboBox::currentTextChanged, m_device, &QComboBox::setToolTip);
    m_device->setToolTip(m_device->currentText());
    connect(m_model, &QComboBox::currentIndexChanged, this, &WhatIfPanel::edited);
    connect(m_streams, &QSpinBox::valueChanged, this, &WhatIfPanel::edited);
}

void WhatIfPanel::setCluster(const core::Cluster& cluster)
{
    m_updating = true;
    m_cluster = cluster;
    m_preset->setCurrentIndex(cluster.edited ? 0
                                             : std::max(0, m_preset->findData(QString::fromStdString(cluster.name))));
    m_device->setCurrentIndex(std::max(0, m_device->findData(QString::fromStdString(cluster.device.name))));
    m_model->setCurrentIndex(m_model->findData(int(cluster.model)));
    m_streams->setValue(cluster.commStreams);
    fillTable();
    m_updating = false;
}

void WhatIfPanel::fillTable()
{
    // The same dimensions as shown: set the values in place, so that a control being edited keeps
    // its focus and cursor when the session reports the cluster back.
    const bool inPlace = m_dims->rowCount() == static_cast<int>(m_cluster.topology.dims.size());
    m_dims->setRowCount(static_cast<int>(m_cluster.topology.dims.size()));
    for (int d = 0; d < m_dims->rowCount(); ++d) {
        const core::TopologyDim& dim = m_cluster.topology.dims[static_cast<std::size_t>(d)];
        const auto algorithmOf = [this, d] {
            return int(m_cluster.system.algorithmFor(core::CollectiveKind::AllReduce, static_cast<std::size_t>(d)));
        };
        if (inPlace) {
            auto* kind = static_cast<QComboBox*>(m_dims->cellWidget(d, 0));
            kind->setCurrentIndex(kind->findData(int(dim.kind)));
            m_dims->item(d, 1)->setText(QString::number(dim.npus));
            auto* bandwidth = static_cast<QDoubleSpinBox*>(m_dims->cellWidget(d, 2));
            if (!sameDisplayed(bandwidth, toDisplayedGBps(dim.bandwidthGBps)))
                bandwidth->setValue(toDisplayedGBps(dim.bandwidthGBps));
            auto* latency = static_cast<QDoubleSpinBox*>(m_dims->cellWidget(d, 3));
            if (!sameDisplayed(latency, dim.latencyNs))
                latency->setValue(dim.latencyNs);
            auto* algorithm = static_cast<QComboBox*>(m_dims->cellWidget(d, 4));
            algorithm->setCurrentIndex(algorithm->findData(algorithmOf()));
            continue;
        }
        auto* kind = new QComboBox(m_dims);
        for (auto k : {core::TopologyKind::Ring, core::TopologyKind::Switch, core::TopologyKind::FullyConnected}) {
            // Translated; the network YAML's identifier ("Switch") in the item's tooltip.
            kind->addItem(NetworkNames::kind(k), int(k));
            kind->setItemData(kind->count() - 1, tr("%1 in a network YAML file").arg(fromView(core::displayName(k))),
                              Qt::ToolTipRole);
        }
        kind->setCurrentIndex(kind->findData(int(dim.kind)));
        // As wide as "switch" (the column follows), not as the longest choice: the list opens wider.
        kind->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        kind->setMinimumContentsLength(6);
        connect(kind, &QComboBox::currentIndexChanged, this, &WhatIfPanel::edited);
        m_dims->setCellWidget(d, 0, kind);
        auto* npus = new QTableWidgetItem(QString::number(dim.npus));
        npus->setFlags(npus->flags() & ~Qt::ItemIsEditable);
        npus->setToolTip(tr("Fixed by the workload's rank count"));
        m_dims->setItem(d, 1, npus);
        auto* bandwidth = new QDoubleSpinBox(m_dims);
        bandwidth->setRange(0.01, 100000);
        bandwidth->setKeyboardTracking(false);
        bandwidth->setDecimals(2);
        // No arrows in the narrow table: the value needs the room (typed, or changed by the wheel).
        bandwidth->setButtonSymbols(QAbstractSpinBox::NoButtons);
        bandwidth->setValue(toDisplayedGBps(dim.bandwidthGBps));
        bandwidth->setToolTip(tr("Per-NPU bandwidth, one direction, in GB/s (GB = 10^9 bytes, as in data sheets "
                                 "and flint --scale-out-bandwidth)"));
        connect(bandwidth, &QDoubleSpinBox::valueChanged, this, &WhatIfPanel::edited);
        m_dims->setCellWidget(d, 2, bandwidth);
        auto* latency = new QDoubleSpinBox(m_dims);
        latency->setRange(0, 1e7);
        latency->setKeyboardTracking(false);
        latency->setDecimals(1);
        latency->setButtonSymbols(QAbstractSpinBox::NoButtons);
        latency->setValue(dim.latencyNs);
        connect(latency, &QDoubleSpinBox::valueChanged, this, &WhatIfPanel::edited);
        m_dims->setCellWidget(d, 3, latency);
        auto* algorithm = new QComboBox(m_dims);
        for (auto a : {core::CollectiveAlgorithm::Ring, core::CollectiveAlgorithm::Direct,
                       core::CollectiveAlgorithm::HalvingDoubling, core::CollectiveAlgorithm::DoubleBinaryTree})
            algorithm->addItem(NetworkNames::algorithm(a), int(a));
        algorithm->setCurrentIndex(algorithm->findData(algorithmOf()));
        algorithm->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        algorithm->setMinimumContentsLength(4);
        // The choice whole in the tooltip: a narrow column cuts a long name ("Halbieren-Verdoppeln").
        const auto explainAlgorithm = [algorithm] {
            algorithm->setToolTip(tr("%1: the collective algorithm on this dimension. Double binary tree applies "
                                     "to all-reduce; the other collectives then use the ring.")
                                      .arg(algorithm->currentText()));
        };
        explainAlgorithm();
        connect(algorithm, &QComboBox::currentIndexChanged, this, explainAlgorithm);
        connect(algorithm, &QComboBox::currentIndexChanged, this, &WhatIfPanel::edited);
        m_dims->setCellWidget(d, 4, algorithm);
    }
}

core::Cluster WhatIfPanel::cluster() const
{
    core::Cluster result = m_cluster;
    if (const core::DeviceSpec* device = core::findDevice(m_device->currentData().toString().toStdString()))
        result.device = *device;
    result.model = static_cast<core::CostModel>(m_model->currentData().toInt());
    result.commStreams = m_streams->value();
    result.edited = m_cluster.edited || m_preset->currentIndex() == 0;
    for (int d = 0; d < m_dims->rowCount(); ++d) {
        core::TopologyDim& dim = result.topology.dims[static_cast<std::size_t>(d)];
        dim.kind =
            static_cast<core::TopologyKind>(static_cast<QComboBox*>(m_dims->cellWidget(d, 0))->currentData().toInt());
        // A spin box shows a rounded value: keep the exact figure unless the user changed it.
        const auto* bandwidth = static_cast<QDoubleSpinBox*>(m_dims->cellWidget(d, 2));
        if (!sameDisplayed(bandwidth, toDisplayedGBps(dim.bandwidthGBps)))
            dim.bandwidthGBps = core::fromDecimalGBps(bandwidth->value());
        const auto* latency = static_cast<QDoubleSpinBox*>(m_dims->cellWidget(d, 3));
        if (!sameDisplayed(latency, dim.latencyNs))
            dim.latencyNs = latency->value();
        // The algorithm lists (from a preset or a system JSON) stay as they are unless this
        // dimension's choice changed; then every collective kind takes it on this dimension.
        const auto chosen = static_cast<core::CollectiveAlgorithm>(
            static_cast<QComboBox*>(m_dims->cellWidget(d, 4))->currentData().toInt());
        const auto dimIndex = static_cast<std::size_t>(d);
        if (chosen != m_cluster.system.algorithmFor(core::CollectiveKind::AllReduce, dimIndex)) {
            const std::size_t dims = result.topology.dims.size();
            const auto setAt = [dims, dimIndex](std::vector<core::CollectiveAlgorithm>& list,
                                                core::CollectiveAlgorithm algorithm) {
                while (list.size() < dims) // a shorter list repeats its last entry
                    list.push_back(list.empty() ? core::CollectiveAlgorithm::Ring : list.back());
                list[dimIndex] = algorithm;
            };
            const auto others =
                chosen == core::CollectiveAlgorithm::DoubleBinaryTree ? core::CollectiveAlgorithm::Ring : chosen;
            setAt(result.system.allReduce, chosen);
            setAt(result.system.allGather, others);
            setAt(result.system.reduceScatter, others);
            setAt(result.system.allToAll, others);
        }
    }
    return result;
}

void WhatIfPanel::edited()
{
    if (m_updating)
        return;
    m_preset->setCurrentIndex(0); // edited: no longer a preset as shipped
    m_debounce->start();
}

void WhatIfPanel::setFixedParameters(const QString& explanation)
{
    m_fixed->setText(explanation);
}

QString WhatIfPanel::fixedParameters() const
{
    return m_fixed->text();
}

void WhatIfPanel::setComparison(const QString& text)
{
    m_comparison->setText(text);
}

QString WhatIfPanel::comparison() const
{
    return m_comparison->text();
}

} // namespace flint::views
