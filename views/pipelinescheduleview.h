// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/pipelineschedule.h"
#include "views/playeddialog.h"

#include <vector>

#include <QDialog>
#include <QWidget>

namespace flint::views {

/// The textbook picture of a pipeline schedule: one row per stage, each microbatch's forward and
/// backward pass a box (numbered where it fits), idle time hatched, drawn up to a time cursor.
class PipelineScheduleView : public QWidget {
    Q_OBJECT

public:
    explicit PipelineScheduleView(QWidget* parent = nullptr);

    void setSchedule(std::vector<std::vector<core::model::TimedStep>> stages);
    /// Draws the steps that have started by `time` (units of a forward pass); the end shows all.
    void setCursor(double time);
    double cursor() const { return m_cursor; }
    double makespan() const { return m_makespan; }
    QSize sizeHint() const override
    {
        return {820, 60 + 26 * static_cast<int>(std::min<std::size_t>(m_stages.size(), 16))};
    }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::vector<std::vector<core::model::TimedStep>> m_stages;
    double m_makespan = 0;
    double m_cursor = 0;
};

/// View > Pipeline schedule: a built-in model's schedule (GPipe, 1F1B or interleaved 1F1B) played
/// from the first microbatch to the last, with its bubble: how much of the step each stage idles
/// when a forward pass takes one unit, a backward pass two and nothing else takes time.
class PipelineScheduleDialog : public PlayedDialog {
    Q_OBJECT

public:
    explicit PipelineScheduleDialog(QWidget* parent = nullptr);

    /// Shows the schedule of `parallel` (training with PP > 1) whole; playing starts it again.
    void setParallel(const core::model::ParallelConfig& parallel);
    /// The idle share of the idealised step (0 to 1).
    double bubble() const { return m_bubble; }
    PipelineScheduleView* view() const { return m_view; }

protected:
    void showPosition(double fraction) override;

private:
    PipelineScheduleView* m_view = nullptr;
    double m_bubble = 0;
};

} // namespace flint::views
