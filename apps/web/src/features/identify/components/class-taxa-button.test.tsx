import type { ClassItem } from '@ipp/contracts';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { AppProvider, createQueryClient } from '@/app/provider';
import { setLanguage } from '@/i18n';
import { callsTo, lastBody, mockServer, signIn } from '@/test/mock-server';
import { okEnvelope } from '@/test/render';
import { ClassTaxaButton } from './class-taxa-button';

const cls = (id: number, title: string, taxon: ClassItem['taxon']): ClassItem => ({
  id,
  title,
  label_index: id,
  system: true,
  visible: true,
  attention: false,
  owner: 'system',
  editable: false,
  taxon,
});

/** `groupId` null: the superadmin has chosen no team. */
function open(canEdit: boolean, { groupId = 4 as number | null, isSuperadmin = false } = {}) {
  render(
    <AppProvider client={createQueryClient()}>
      <ClassTaxaButton groupId={groupId ?? undefined} isSuperadmin={isSuperadmin} canEdit={canEdit} />
    </AppProvider>,
  );
  fireEvent.click(screen.getByTestId('identify-class-taxa'));
}

beforeEach(async () => {
  await setLanguage('en');
  signIn('administrator');
});

describe('class taxa', () => {
  it("lists each class's taxon and where it comes from; an administrator edits one and resets another", async () => {
    const fetchMock = mockServer({
      '/api/tool/sys-init': () =>
        okEnvelope([
          cls(1, '001Copepod', { name: 'Copepoda', aphia_id: 1080, name_zh: '桡足类', source: 'starter' }),
          cls(8, '008Bubble', { name: 'Calanus', aphia_id: null, name_zh: null, source: 'team' }),
          cls(9, '120Blob', null),
        ]),
      '/api/taxa/save-class-taxon': () => okEnvelope({ class_id: 1, taxon: null }),
    });
    open(true);
    expect((await screen.findByTestId('class-taxa-name-1')).textContent).toBe('Copepoda');
    expect(callsTo(fetchMock, '/api/tool/sys-init')[0]!.url.searchParams.get('group_id')).toBe('4');
    expect(screen.getByTestId('class-taxa-source-1').textContent).toBe('Starter list');
    expect(screen.getByTestId('class-taxa-source-8').textContent).toBe('This team');
    expect(screen.getByTestId('class-taxa-source-9').textContent).toBe('No taxon');
    expect(screen.getByText('1080').closest('a')?.getAttribute('href')).toBe(
      'https://www.marinespecies.org/aphia.php?p=taxdetails&id=1080',
    );

    // A name that is not Latin is refused in the form, before anything is sent.
    fireEvent.click(screen.getByTestId('class-taxa-edit-1'));
    const name = await screen.findByTestId('class-taxa-input-name');
    fireEvent.change(name, { target: { value: '1Copepoda' } });
    fireEvent.click(screen.getByTestId('class-taxa-save'));
    expect(await screen.findByText("A letter first; then letters, digits, spaces and . ( ) ' < _ - only")).toBeTruthy();
    expect(callsTo(fetchMock, '/api/taxa/save-class-taxon')).toHaveLength(0);
    fireEvent.change(name, { target: { value: ' Calanus finmarchicus ' } });
    fireEvent.change(screen.getByTestId('class-taxa-input-zh'), { target: { value: '飞马哲水蚤' } });
    fireEvent.click(screen.getByTestId('class-taxa-save'));
    await waitFor(() =>
      expect(lastBody(fetchMock, '/api/taxa/save-class-taxon')).toEqual({
        class_id: 1,
        group_id: 4,
        taxon_name: 'Calanus finmarchicus',
        aphia_id: 1080,
        name_zh: '飞马哲水蚤',
      }),
    );
    // The starter list is offered back only for a class the team mapped.
    await waitFor(() => expect(screen.queryByTestId('class-taxa-form')).toBeNull());
    fireEvent.click(screen.getByTestId('class-taxa-edit-8'));
    fireEvent.click(await screen.findByTestId('class-taxa-reset'));
    await waitFor(() =>
      expect(lastBody(fetchMock, '/api/taxa/save-class-taxon')).toEqual({ class_id: 8, group_id: 4, reset: true }),
    );
  });

  it('is read-only for plain users, and for the superadmin until a team is chosen', async () => {
    mockServer({ '/api/tool/sys-init': () => okEnvelope([cls(1, '001Copepod', null)]) });
    open(false);
    await screen.findByTestId('class-taxa-row-1');
    expect(screen.queryByTestId('class-taxa-edit-1')).toBeNull();
  });

  it('asks the superadmin to choose a team before changing anything', async () => {
    signIn('superadmin');
    mockServer({ '/api/tool/sys-init': () => okEnvelope([cls(1, '001Copepod', null)]) });
    open(true, { groupId: null, isSuperadmin: true });
    await screen.findByTestId('class-taxa-row-1');
    expect(screen.getByTestId('class-taxa-modal').textContent).toContain(
      'Choose a team above to change its taxa; the starter list is shown.',
    );
    expect(screen.queryByTestId('class-taxa-edit-1')).toBeNull();
  });
});
