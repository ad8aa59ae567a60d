// SPDX-License-Identifier: MIT
#pragma once

#include "core/estimator/collectivesteps.h"

#include <cstdint>
#include <vector>

#include <QDialog>
#include <QStringList>
#include <QTimer>
#include <QWidget>

class QLabel;
class QSlider;
class QToolButton;

namespace flint::views {

/// A collective's members on a circle (in rank order, the logical ring; nodes as bands around it)
/// and the messages of one of its steps as arrows coloured by the topology dimension they cross.
class CollectiveAnimationView : public QWidget {
    Q_OBJECT

public:
    explicit CollectiveAnimationView(QWidget* parent = nullptr);

    /// `members` in ascending rank order; `ranksPerNode` groups them into nodes (0: one group);
    /// `dimensionNames` name the topology's dimensions for the legend.
    void setCollective(std::vector<std::int32_t> members, std::vector<core::CollectiveStep> steps,
                       const core::Topology& topology, QStringList dimensionNames);
    void setStep(int index);
    int step() const { return m_step; }
    int stepCount() const { return static_cast<int>(m_steps.size()); }
    const std::vector<core::CollectiveStep>& steps() const { return m_steps; }
    std::size_t memberCount() const { return m_members.size(); }
    QSize sizeHint() const override { return {520, 440}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::vector<std::int32_t> m_members;
    std::vector<core::CollectiveStep> m_steps;
    std::vector<std::vector<int>> m_dims; ///< per step and transfer: the dimension it crosses
    std::vector<std::int32_t> m_node;     ///< per member position: its node (consecutive runs)
    QStringList m_dimensionNames;
    double m_maxBytes = 0;
    int m_step = 0;
};

/// Plays a collective step by step (teaching view, View > Animate selected collective): the circle
/// of CollectiveAnimationView, what each step does in words with its bytes and time, and controls to
/// step, play and scrub.
class CollectiveAnimationDialog : public QDialog {
    Q_OBJECT

public:
    explicit CollectiveAnimationDialog(QWidget* parent = nullptr);

    /// Shows `cost` (CollectiveModel::collective of `kind` with `bytes` per member on `members`)
    /// from its first step. `title` names the op.
    void setCollective(const QString& title, core::CollectiveKind kind, std::uint64_t bytes,
                       const core::CollectiveCost& cost, const core::Topology& topology,
                       std::vector<std::int32_t> members, QStringList dimensionNames);
    int step() const;
    int stepCount() const;
    /// The description of the step shown (plain text).
    QString stepText() const;

public Q_SLOTS:
    void showStep(int index);
    void next();
    void previous();
    void setPlaying(bool playing);

private:
    CollectiveAnimationView* m_view = nullptr;
    QLabel* m_summary = nullptr;
    QLabel* m_phase = nullptr;
    QLabel* m_text = nullptr;
    QSlider* m_slider = nullptr;
    QToolButton* m_play = nullptr;
    QTimer m_timer;
    core::CollectiveCost m_cost; ///< the phases the view's steps belong to
    QStringList m_dimensionNames;
};

} // namespace flint::views
