// SPDX-License-Identifier: MIT
#pragma once

#include "core/estimator/cluster.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
class QSpinBox;
class QTableWidget;
class QTimer;
QT_END_NAMESPACE

namespace flint::views {

/// The what-if controls: cluster preset, device, per-dimension topology kind, bandwidth and latency,
/// collective cost model and communication streams. Every edit is debounced and announced with
/// clusterChanged(); the panel never runs an estimate itself. It also shows what cannot be changed
/// for the loaded workload, and the before/after comparison of the last change.
class WhatIfPanel : public QWidget {
    Q_OBJECT

public:
    explicit WhatIfPanel(QWidget* parent = nullptr);

    /// Shows `cluster` in the controls without emitting clusterChanged().
    void setCluster(const core::Cluster& cluster);
    /// The cluster the controls describe now.
    core::Cluster cluster() const;
    /// Explains which parameters the loaded workload fixes, and why.
    void setFixedParameters(const QString& explanation);
    /// Shows the comparison of the last change (step time and breakdown deltas).
    void setComparison(const QString& text);
    /// The comparison shown (HTML).
    QString comparison() const;
    /// What the open workload fixes and what stays free (setFixedParameters).
    QString fixedParameters() const;
    /// Milliseconds between the last edit and clusterChanged(); typed numbers count when committed
    /// (Enter, Tab or an arrow), not at every digit.
    static constexpr int kDebounceMs = 40;

Q_SIGNALS:
    void clusterChanged(const flint::core::Cluster& cluster);
    /// The user picked a preset: the main window sizes it for the workload's ranks.
    void presetChosen(const QString& preset);

private:
    void edited();
    void fillTable();

    core::Cluster m_cluster;
    QComboBox* m_preset = nullptr;
    QComboBox* m_device = nullptr;
    QComboBox* m_model = nullptr;
    QSpinBox* m_streams = nullptr;
    QTableWidget* m_dims = nullptr;
    QLabel* m_fixed = nullptr;
    QLabel* m_comparison = nullptr;
    QTimer* m_debounce = nullptr;
    bool m_updating = false;
};

} // namespace flint::views
