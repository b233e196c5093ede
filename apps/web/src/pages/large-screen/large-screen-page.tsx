/**
 * displayLargeScreen: the wall display, drawn without the shell on a 1920×1080 stage scaled to fit
 * the window whole (use-fitted-stage.ts), live for the caller's scope: figures refetched when the
 * stream says they moved, charts updated in place, and a feed of the events as they come.
 */
import { OVERVIEW_FIGURES, formatBusinessDateTime, type LiveEvent, type Overview } from '@campus/contract';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useLiveTopic } from '../../hooks/use-live-topic';
import { useTabPane } from '../../hooks/use-tab-pane';
import { useT } from '../../lib/i18n';
import { changeTone, formatChange, formatFigure } from '../live/figure-format';
import { useOverview } from '../live/use-overview';
import { LiveChart } from './live-chart';
import { STAGE_HEIGHT, STAGE_WIDTH, useFittedStage } from './use-fitted-stage';
import './large-screen.css';

const FEED_LENGTH = 9;
const TILES = OVERVIEW_FIGURES.filter((name) => name !== 'recognitions' && name !== 'devicesOnline' && name !== 'devicesOffline');

interface FeedItem {
  id: number;
  at: number;
  text: string;
}

function useClock(): string {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 1000);
    return () => clearInterval(timer);
  }, []);
  return formatBusinessDateTime(now, { seconds: true });
}

/** The last events of the caller's scope, newest first, worded with the school's name where the overview knows it. */
function useEventFeed(overview: Overview | undefined): FeedItem[] {
  const t = useT();
  const [feed, setFeed] = useState<FeedItem[]>([]);
  const nextId = useRef(0);
  const names = useRef(new Map<number, string>());
  for (const school of overview?.topSchools ?? []) names.current.set(school.schoolId, school.name);
  const add = (event: LiveEvent, key: Parameters<typeof t>[0], extra: Record<string, string | number> = {}) => {
    const school = event.schoolId === null ? '—' : (names.current.get(event.schoolId) ?? t('live.schoolUnknown', { id: event.schoolId }));
    const item = { id: (nextId.current += 1), at: event.at, text: t(key, { school, ...extra }) };
    setFeed((list) => [item, ...list].slice(0, FEED_LENGTH));
  };
  useLiveTopic('recognitions', (event) => add(event, 'live.screenEventRecognitions', { count: Number((event.data as { count?: number } | undefined)?.count ?? 0) }));
  useLiveTopic('terminals', (event) => add(event, (event.data as { online?: boolean } | undefined)?.online ? 'live.screenEventTerminalOn' : 'live.screenEventTerminalOff'));
  useLiveTopic('badges', (event) => add(event, 'live.screenEventBadge'));
  return feed;
}

const AXIS = { axisLine: { lineStyle: { color: '#3b5b8c' } }, axisLabel: { color: '#9fb6d9', fontSize: 14 }, splitLine: { lineStyle: { color: 'rgba(59, 91, 140, 0.35)' } } };

/** In a tab (a tab restored from an earlier session), the display is offered, never drawn over the shell. */
function OpenFullScreen() {
  const t = useT();
  const navigate = useNavigate();
  return (
    <div className="screen-launcher">
      <button type="button" className="screen-back" onClick={() => navigate('/displayLargeScreen')}>
        {t('live.screenTitle')}
      </button>
    </div>
  );
}

export default function DisplayLargeScreenPage() {
  return useTabPane() ? <OpenFullScreen /> : <WallDisplay />;
}

function WallDisplay() {
  const t = useT();
  const navigate = useNavigate();
  const scale = useFittedStage();
  const clock = useClock();
  const overview = useOverview();
  const data = overview.data;
  const feed = useEventFeed(data);
  const figures = data?.figures;

  const hourOption = useMemo(
    () => ({
      animationDurationUpdate: 600,
      grid: { left: 56, right: 24, top: 24, bottom: 36 },
      tooltip: { trigger: 'axis' },
      xAxis: { type: 'category', data: Array.from({ length: 24 }, (_, hour) => String(hour)), ...AXIS },
      yAxis: { type: 'value', minInterval: 1, ...AXIS },
      series: [{ id: 'byHour', type: 'bar', data: data?.recognitionsByHour ?? [], barWidth: '60%', itemStyle: { color: '#36cfc9', borderRadius: [4, 4, 0, 0] } }],
    }),
    [data?.recognitionsByHour],
  );
  const schools = useMemo(() => [...(data?.topSchools ?? [])].reverse(), [data?.topSchools]);
  const schoolOption = useMemo(
    () => ({
      animationDurationUpdate: 600,
      grid: { left: 230, right: 40, top: 8, bottom: 24 },
      xAxis: { type: 'value', minInterval: 1, ...AXIS },
      yAxis: { type: 'category', data: schools.map((school) => school.name), ...AXIS, axisLabel: { ...AXIS.axisLabel, width: 216, overflow: 'truncate' } },
      series: [{ id: 'schools', type: 'bar', data: schools.map((school) => school.recognitions), itemStyle: { color: '#597ef7', borderRadius: [0, 4, 4, 0] }, label: { show: true, position: 'right', color: '#e6f4ff' } }],
    }),
    [schools],
  );
  const online = figures?.devicesOnline.today ?? 0;
  const offline = figures?.devicesOffline.today ?? 0;
  const deviceOption = useMemo(
    () => ({
      animationDurationUpdate: 600,
      legend: { bottom: 0, textStyle: { color: '#9fb6d9', fontSize: 14 } },
      series: [
        {
          id: 'devices',
          type: 'pie',
          radius: ['48%', '70%'],
          center: ['50%', '44%'],
          label: { show: false },
          data: [
            { name: t('live.screenOnline'), value: online, itemStyle: { color: '#73d13d' } },
            { name: t('live.screenOffline'), value: offline, itemStyle: { color: '#ff7875' } },
          ],
        },
      ],
    }),
    [online, offline, t],
  );
  const share = online + offline === 0 ? 0 : Math.round((online / (online + offline)) * 1000) / 10;
  const recognitions = figures?.recognitions;

  return (
    <div className="screen-viewport" data-testid="large-screen">
      <div className="screen-frame" style={{ width: STAGE_WIDTH * scale, height: STAGE_HEIGHT * scale }}>
        <div className="screen-stage" style={{ width: STAGE_WIDTH, height: STAGE_HEIGHT, transform: `scale(${scale})` }}>
          <header className="screen-header">
            <button type="button" className="screen-back" onClick={() => navigate('/index')}>
              {t('live.screenBack')}
            </button>
            <h1 className="screen-title">{t('live.screenTitle')}</h1>
            <div className="screen-clock">
              <span className={overview.isLive ? 'screen-dot is-live' : 'screen-dot'} data-testid="live-status" data-live={overview.isLive ? '1' : '0'} />
              {overview.isLive ? t('live.streamOn') : t('live.streamOff')} · {clock}
            </div>
          </header>

          <section className="screen-left">
            <div className="screen-tiles">
              {TILES.map((name) => (
                <div key={name} className="screen-tile" data-figure={name}>
                  <div className="screen-tile-label">{t(`live.figure.${name}`)}</div>
                  <div className="screen-tile-value">{figures ? formatFigure(name, figures[name].today) : '—'}</div>
                </div>
              ))}
            </div>
            <div className="screen-panel screen-devices">
              <div className="screen-panel-title">{t('live.screenShare')}</div>
              <div className="screen-share">{share}%</div>
              <LiveChart option={deviceOption} className="screen-chart-devices" />
            </div>
          </section>

          <section className="screen-center">
            <div className="screen-big" data-figure="recognitions">
              <div className="screen-big-label">{t('live.figure.recognitions')}</div>
              <div className="screen-big-value" data-testid="screen-recognitions">{recognitions ? formatFigure('recognitions', recognitions.today) : '—'}</div>
              <div className="screen-big-changes">
                {recognitions
                  ? ([
                      [t('live.vsYesterday'), recognitions.yesterday],
                      [t('live.vsLastWeek'), recognitions.lastWeek],
                    ] as const).map(([label, before]) => (
                      <span key={label} className={changeTone('recognitions', recognitions.today, before)}>
                        {label} {formatChange('recognitions', recognitions.today, before)}
                      </span>
                    ))
                  : null}
              </div>
            </div>
            <div className="screen-panel screen-hours">
              <div className="screen-panel-title">{t('live.byHour')}</div>
              <LiveChart option={hourOption} className="screen-chart-hours" testId="screen-hour-chart" />
            </div>
          </section>

          <section className="screen-right">
            <div className="screen-panel screen-schools">
              <div className="screen-panel-title">{t('live.topSchools')}</div>
              {data && schools.length === 0 ? (
                <div className="screen-feed-empty">{t('live.screenNoRecognitions')}</div>
              ) : (
                <LiveChart option={schoolOption} className="screen-chart-schools" />
              )}
            </div>
            <div className="screen-panel screen-feed">
              <div className="screen-panel-title">{t('live.screenEvents')}</div>
              {feed.length === 0 ? (
                <div className="screen-feed-empty">{t('live.screenNoEvents')}</div>
              ) : (
                <ul data-testid="screen-feed">
                  {feed.map((item) => (
                    <li key={item.id}>
                      <span className="screen-feed-time">{formatBusinessDateTime(new Date(item.at), { seconds: true }).slice(11)}</span>
                      <span className="screen-feed-text">{item.text}</span>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          </section>
        </div>
      </div>
    </div>
  );
}
