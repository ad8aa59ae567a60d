// SPDX-License-Identifier: MIT
#pragma once

#include "core/estimator/linkutilisation.h"
#include "core/estimator/topology.h"
#include "views/playeddialog.h"

#include <QDialog>
#include <QWidget>

namespace flint::views {

/// The network of an estimate, one row per topology dimension (innermost first): a few NPUs of the
/// dimension wired as it is wired (a switch, a ring, a full mesh), their links drawn as busy as they
/// are at a time cursor, and beside them the dimension's utilisation over the step (all ranks' mean
/// filled, the busiest rank's as a line, 100 % dashed).
class NetworkUtilisationView : public QWidget {
    Q_OBJECT

public:
    explicit NetworkUtilisationView(QWidget* parent = nullptr);

    void setData(core::Topology topology, core::LinkUtilisation links);
    /// Seconds from the step start; the links show the bin that holds it.
    void setCursor(double seconds);
    double cursor() const { return m_cursor; }
    const core::LinkUtilisation& links() const { return m_links; }
    const core::Topology& topology() const { return m_topology; }
    /// The bin of `seconds` (clamped to the step).
    std::size_t binAt(double seconds) const;
    QSize sizeHint() const override
    {
        return {900, 40 + kRowHeight * static_cast<int>(std::max<std::size_t>(1, m_topology.dims.size()))};
    }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    static constexpr int kRowHeight = 150;
    void paintSchematic(class QPainter& p, const QRectF& area, std::size_t dim, double utilisation) const;
    void paintChart(QPainter& p, const QRectF& area, std::size_t dim, bool timeAxis) const;

    core::Topology m_topology;
    core::LinkUtilisation m_links;
    double m_cursor = 0;
};

/// View > Network utilisation: the links of every topology dimension and how busy they are over the
/// step, played from start to end (a teaching view: where the step waits on which network).
class NetworkUtilisationDialog : public PlayedDialog {
    Q_OBJECT

public:
    explicit NetworkUtilisationDialog(QWidget* parent = nullptr);

    /// Shows `links` on `topology` from the step's start.
    void setData(const core::Topology& topology, core::LinkUtilisation links);
    NetworkUtilisationView* view() const { return m_view; }

protected:
    void showPosition(double fraction) override;

private:
    NetworkUtilisationView* m_view = nullptr;
};

} // namespace flint::views
