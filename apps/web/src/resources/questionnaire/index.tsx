/** The questionnaire page: a row opens its results (charts per question), its answer link and the answers' export. */
import { Suspense, lazy, type ComponentProps } from 'react';
import type { WebFamilyModule } from '../resource-overrides';

// The results drawer (its cards, and ECharts behind them) is fetched when it is first opened.
const ResultsDrawerPart = lazy(() => import('./questionnaire-results-drawer').then((module) => ({ default: module.QuestionnaireResultsDrawer })));

function QuestionnaireResultsDrawer(props: ComponentProps<typeof ResultsDrawerPart>) {
  return (
    <Suspense fallback={null}>
      <ResultsDrawerPart {...props} />
    </Suspense>
  );
}

export const questionnaireModule: WebFamilyModule = {
  family: 'Questionnaire',
  overrides: { rowActions: [{ key: 'results', label: 'rowAction.results', Panel: QuestionnaireResultsDrawer }] },
};
