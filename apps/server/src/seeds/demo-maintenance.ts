/** Demo maintenance tickets: an open urgent one and a finished one on a school's first device. */
import type { MaintenanceTicket } from '@campus/contract';

type TicketRow = Partial<Record<keyof (typeof MaintenanceTicket)['fields'], unknown>> & { deviceId: number; schoolId: number; title: string };

/** The demo tickets of the school at `position` in the demo list, on one of its devices. */
export function demoTickets(position: number, schoolId: number, deviceId: number): TicketRow[] {
  const day = `202605${String((position % 28) + 1).padStart(2, '0')}`;
  return [
    {
      ticketNo: `WX${day}${String(position * 2 + 1).padStart(6, '0')}`,
      deviceId,
      schoolId,
      title: '闸机人脸识别失败',
      description: '早上入园高峰时闸机频繁识别失败，需要现场检查摄像头。',
      priority: 'urgent',
      state: 1,
    },
    {
      ticketNo: `WX${day}${String(position * 2 + 2).padStart(6, '0')}`,
      deviceId,
      schoolId,
      title: '闸机网络断开',
      description: '闸机显示离线，家长刷脸无反应，考勤记录未上传。',
      priority: 'normal',
      resolution: '更换网线并重新配置交换机端口。',
      state: 4,
    },
  ];
}
