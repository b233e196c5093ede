/** userTemperature: the fever threshold in force above the generic log page of the alerts. */
import type { ResourceDef } from '@campus/contract';
import { Space } from 'antd';
import { LogPage } from '../log-page';
import { FeverThresholdCard } from './fever-threshold-card';

export function FeverAlertPage({ def, frame }: { def: ResourceDef; frame: string }) {
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <FeverThresholdCard frame={frame} />
      <LogPage def={def} frame={frame} />
    </Space>
  );
}
