import { ResourcePage, type ResourcePageProps } from '../list/resource-page';
import { NationalCalendarCard } from './national-calendar-card';

/** holidayManage: the school's own days (the generic page), then the national calendar they combine with. */
export function SchoolHolidayPage(props: ResourcePageProps) {
  return (
    <div className="page-stack">
      <ResourcePage {...props} />
      <NationalCalendarCard />
    </div>
  );
}
