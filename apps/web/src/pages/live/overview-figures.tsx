/** The Overview's figures as cards: today's value with its change against yesterday and last week. */
import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { Card, Col, Row, Statistic } from 'antd';
import { OVERVIEW_FIGURES, type Overview, type OverviewFigure, type OverviewFigureKey } from '@campus/contract';
import { useT } from '../../lib/i18n';
import { changeTone, formatChange, formatFigure } from './figure-format';
import './live.css';

function Change({ name, label, today, before }: { name: OverviewFigureKey; label: string; today: number; before: number }) {
  const delta = today - before;
  return (
    <span className={`figure-change ${changeTone(name, today, before)}`}>
      {label} {delta > 0 ? <ArrowUpOutlined /> : delta < 0 ? <ArrowDownOutlined /> : null}
      {formatChange(name, today, before)}
    </span>
  );
}

export function FigureCard({ name, figure }: { name: OverviewFigureKey; figure: OverviewFigure }) {
  const t = useT();
  return (
    <Card className="figure-card" size="small" data-figure={name}>
      <Statistic title={t(`live.figure.${name}`)} value={formatFigure(name, figure.today)} />
      <div className="figure-changes">
        <Change name={name} label={t('live.vsYesterday')} today={figure.today} before={figure.yesterday} />
        <Change name={name} label={t('live.vsLastWeek')} today={figure.today} before={figure.lastWeek} />
      </div>
    </Card>
  );
}

export function OverviewFigures({ overview }: { overview: Overview }) {
  return (
    <Row gutter={[16, 16]} data-testid="overview-figures">
      {OVERVIEW_FIGURES.map((name) => (
        <Col key={name} xs={24} sm={12} lg={8} xxl={6}>
          <FigureCard name={name} figure={overview.figures[name]} />
        </Col>
      ))}
    </Row>
  );
}
