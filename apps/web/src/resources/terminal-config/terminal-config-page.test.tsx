import { TerminalConfig, type VisibilityProbes } from '@campus/contract';
import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLocale } from '../../lib/i18n';
import { renderPage, stubServer } from '../../test/render-page';
import { ResourcePage } from '../list/resource-page';
import { terminalConfigModule } from '.';

const RENDER_WAIT = { timeout: 5000 };

const templateRow = { id: 4, version: 1, name: '标准闸机参数', recognitionThreshold: 80, temperatureThreshold: 37.3, doorOpenSeconds: 3, volume: 60, workingHours: '06:30-18:30', enabled: true };

/** The server as the page sees it: one template, and the caller's probes. */
function stubTemplateServer(probes: Partial<VisibilityProbes>) {
  stubServer(
    {
      '/api/TerminalConfig/Search': () => ({ items: [templateRow], total: 1, totalIsCapped: false }),
      '/api/User/GetVisibilityProbes': () => ({ hideAmountColumns: false, isAgent: true, ...probes }),
    },
    { userType: 'agent' },
  );
}

function renderTemplatePage() {
  return renderPage(<ResourcePage def={TerminalConfig} frame="templateManage" overrides={terminalConfigModule.overrides} />, {
    frame: { fixedId: 608, index: 'templateManage' },
    buttons: ['add', 'update', 'delete', 'export'],
  });
}

describe('the parameter template page', { timeout: 15_000 }, () => {
  beforeEach(() => setLocale('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('offers no add, edit, apply or delete to a caller without canUpdateParamConfigs', async () => {
    stubTemplateServer({ canUpdateParamConfigs: false, canSetParamOptions: false });
    renderTemplatePage();
    expect(await screen.findByText('标准闸机参数', undefined, RENDER_WAIT)).toBeTruthy();
    // The probes arrive after the rows: wait for the page to settle on them.
    await vi.waitFor(() => expect(screen.queryByRole('button', { name: /Add/ })).toBeNull(), RENDER_WAIT);
    expect(screen.queryByRole('button', { name: 'Apply to terminals' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Delete/ })).toBeNull();
  });

  it('lets a caller without canSetParamOptions add a template, without the threshold fields', async () => {
    stubTemplateServer({ canUpdateParamConfigs: true, canSetParamOptions: false });
    renderTemplatePage();
    expect(await screen.findByText('标准闸机参数', undefined, RENDER_WAIT)).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Apply to terminals' }, RENDER_WAIT)).toBeTruthy();
    (await screen.findByRole('button', { name: /Add/ }, RENDER_WAIT)).click();
    expect(await screen.findByLabelText('Volume', undefined, RENDER_WAIT)).toBeTruthy();
    expect(screen.queryByLabelText('Recognition threshold')).toBeNull();
    expect(screen.queryByLabelText('Fever threshold (°C)')).toBeNull();
  });
});
